// JSON result members that dissem-norm and dissem-pgm write alike: the
// members every result starts with, a receiver's completed messages and a
// sender's enqueue and sent times, so that the reporter reads both the same.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "core/json.h"

namespace dissem::baseline {

// A result object holding system, role, node_id, group and port, for the
// caller to add its own members to.
Json result_head(std::string_view system, std::string_view role, std::uint32_t node_id, std::string_view group,
                 std::uint16_t port);

// A message a receiver completed.
struct ReceivedMessage {
  std::uint32_t index = 0;            // position in the sender's --messages list
  std::uint64_t bytes = 0;
  std::int64_t enqueue_unix_us = 0;   // the sender's wall clock, from the message's header
  double new_s = 0;                   // its first packet, seconds since start
  std::int64_t new_unix_us = 0;
  double completed_s = 0;
  std::int64_t completed_unix_us = 0;
  bool content_ok = false;            // every byte as the sender made it
};

// The messages a receiver completed (each once), in completion order.
class ReceivedMessages {
 public:
  void add(const ReceivedMessage& message);

  std::size_t count() const { return messages_.size(); }
  std::uint64_t bytes() const { return bytes_; }
  std::uint64_t content_errors() const { return content_errors_; }
  const std::optional<double>& last_completion_s() const { return last_completion_s_; }

  // [{index, bytes, latency_s, enqueue_unix, new_s, new_unix, completed_s,
  // completed_unix, content_ok}] (a result's "messages"); latency =
  // completion wall time - the sender's enqueue wall time.
  Json json() const;

 private:
  std::vector<ReceivedMessage> messages_;
  std::uint64_t bytes_ = 0;
  std::uint64_t content_errors_ = 0;
  std::optional<double> last_completion_s_;
};

// What a sender did with one message of its --messages list; times are
// seconds on the sender's run clock.
struct SentMessage {
  std::uint32_t size = 0;
  std::optional<double> enqueue_s;
  std::int64_t enqueue_unix_us = 0;
  std::optional<double> sent_s;
};

// "enqueue_times" and "sent_times": each message's enqueue_s and sent_s less
// t0 (the time start_unix stands for), null where there is none yet.
// `messages` holds SentMessage or types derived from it.
template <typename Messages>
void add_send_times(Json& j, const Messages& messages, double t0) {
  const auto since_t0 = [t0](const std::optional<double>& s) { return s ? Json(*s - t0) : Json(nullptr); };
  Json enqueue = Json::array();
  Json sent = Json::array();
  for (const SentMessage& m : messages) {
    enqueue.push_back(since_t0(m.enqueue_s));
    sent.push_back(since_t0(m.sent_s));
  }
  j["enqueue_times"] = std::move(enqueue);
  j["sent_times"] = std::move(sent);
}

}  // namespace dissem::baseline
