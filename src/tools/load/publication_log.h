// What an experiment's publisher produced: per message when (from its start)
// and how late against the plan, per stream how many messages and bytes. The
// JSON shape is shared by dissem-load and the TCP baseline
// (emulation/baselines/tcp), so the reporter reads both alike.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/json.h"
#include "tools/load/stamped_payload.h"
#include "tools/load/workload.h"

namespace dissem::load {

// The stamp of a planned message whose publisher started at `start_unix_us`:
// stamped with its planned production time, whenever it is actually handed
// over, so latency runs from when the update was produced.
Stamp stamp_of(const Planned& message, std::uint64_t start_unix_us);

class PublicationLog {
 public:
  // `plan` names the streams (none: "stream-<id>").
  explicit PublicationLog(const Workload& plan);

  // `message` was handed to the transport `produced_s` after the start.
  void add(const Planned& message, double produced_s);

  std::size_t published() const { return times_.size(); }
  std::uint64_t bytes() const { return bytes_; }

  // The JSON object members a result adds, in this order:
  // messages_published, bytes_published, publish_s [...], late_max_s (the
  // most a message was handed over after its planned time), streams {name:
  // {published, bytes}}. Times in whole microseconds.
  Json json_members() const;

 private:
  struct PerStream {
    std::string name;
    std::size_t published = 0;
    std::uint64_t bytes = 0;
  };
  PerStream& stream(std::uint32_t id);

  std::vector<PerStream> streams_;
  std::vector<double> times_;
  std::uint64_t bytes_ = 0;
  double late_max_s_ = 0;
};

}  // namespace dissem::load
