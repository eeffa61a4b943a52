#include "result_members.h"

#include "run_clock.h"

namespace dissem::baseline {

void begin_result(JsonWriter& j, std::string_view system, std::string_view role, std::uint32_t node_id,
                  std::string_view group, std::uint16_t port) {
  j.begin_object()
      .field("system", system)
      .field("role", role)
      .field("node_id", node_id)
      .field("group", group)
      .field("port", port);
}

void ReceivedMessages::add(const ReceivedMessage& message) {
  if (!message.content_ok) ++content_errors_;
  bytes_ += message.bytes;
  last_completion_s_ = message.completed_s;
  messages_.push_back(message);
}

void ReceivedMessages::write(JsonWriter& j) const {
  j.key("messages").begin_array();
  for (const auto& m : messages_) {
    j.begin_object()
        .field("index", m.index)
        .field("bytes", m.bytes)
        .field("latency_s", us_to_s(m.completed_unix_us - m.enqueue_unix_us))
        .field("enqueue_unix", us_to_s(m.enqueue_unix_us))
        .field("new_s", m.new_s)
        .field("new_unix", us_to_s(m.new_unix_us))
        .field("completed_s", m.completed_s)
        .field("completed_unix", us_to_s(m.completed_unix_us))
        .field("content_ok", m.content_ok)
        .end_object();
  }
  j.end_array();
}

}  // namespace dissem::baseline
