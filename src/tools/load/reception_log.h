// What an experiment's receiver got: every stamped message once, by
// publisher, stream and index, with its latency (receipt minus production,
// both on the one host clock emulated nodes share). Per stream: how many of
// the planned messages arrived, how many sources' final updates arrived (with
// replacement, fewer messages arrive by design, but the newest of every
// source must), and the latency figures. dissem-load and the TCP baseline
// (emulation/baselines/tcp) print it in one JSON shape, so the reporter reads
// both alike.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "core/json.h"
#include "tools/load/workload.h"

namespace dissem::load {

class ReceptionLog {
 public:
  // `plan` names the streams and says what was planned; it may have no
  // streams (a receiver told only how many messages to expect): then streams
  // are named "stream-<id>" and `expected` is what completes the log.
  ReceptionLog(Workload plan, std::size_t expected);

  enum class Outcome { Accepted, Duplicate, ContentError };
  // A delivered payload from `publisher` (any text naming the sender),
  // received at `now_unix_us`, `since_start_s` after the receiver started.
  Outcome add(std::string_view publisher, std::span<const std::uint8_t> payload, std::uint64_t now_unix_us,
              double since_start_s);

  std::size_t received() const { return records_.size(); }
  std::size_t expected() const { return expected_; }
  bool complete() const { return expected_ > 0 && records_.size() >= expected_; }
  // When the publisher produced its last planned message (Unix µs), known
  // once a message of a planned stream has arrived: its stamp and its place
  // in the plan give the publisher's start.
  std::optional<std::uint64_t> plan_end_unix_us() const { return plan_end_unix_us_; }

  // The JSON object members a result adds, in this order:
  // messages_completed, bytes_completed, expected, content_errors,
  // duplicates, first_rx_s (-1 before the first), last_completion_s, streams
  // {name: figures}, messages [records]. Times in whole microseconds.
  Json json_members() const;

 private:
  struct Record {
    std::string publisher;
    std::uint32_t stream = 0;
    std::uint32_t index = 0;
    std::size_t bytes = 0;
    double latency_s = 0;
    double completed_unix = 0;
  };

  std::string stream_name(std::uint32_t stream) const;
  Json streams_json() const;
  Json stream_json(std::uint32_t stream) const;

  Workload plan_;
  std::size_t expected_ = 0;
  std::vector<Record> records_;  // in arrival order
  std::set<std::tuple<std::string, std::uint32_t, std::uint32_t>> seen_;
  std::size_t duplicates_ = 0;
  std::size_t content_errors_ = 0;
  std::optional<double> first_rx_s_;
  double last_completion_s_ = 0;
  std::optional<std::uint64_t> plan_end_unix_us_;
};

// Quantile q (0..1) of `values` by the nearest-rank rule; nullopt when empty.
std::optional<double> quantile(std::vector<double> values, double q);

}  // namespace dissem::load
