#include "result_members.h"

#include "run_clock.h"

namespace dissem::baseline {

Json result_head(std::string_view system, std::string_view role, std::uint32_t node_id, std::string_view group,
                 std::uint16_t port) {
  return {{"system", system}, {"role", role}, {"node_id", node_id}, {"group", group}, {"port", port}};
}

void ReceivedMessages::add(const ReceivedMessage& message) {
  if (!message.content_ok) ++content_errors_;
  bytes_ += message.bytes;
  last_completion_s_ = message.completed_s;
  messages_.push_back(message);
}

Json ReceivedMessages::json() const {
  Json out = Json::array();
  for (const auto& m : messages_) {
    out.push_back({{"index", m.index},
                   {"bytes", m.bytes},
                   {"latency_s", us_to_s(m.completed_unix_us - m.enqueue_unix_us)},
                   {"enqueue_unix", us_to_s(m.enqueue_unix_us)},
                   {"new_s", m.new_s},
                   {"new_unix", us_to_s(m.new_unix_us)},
                   {"completed_s", m.completed_s},
                   {"completed_unix", us_to_s(m.completed_unix_us)},
                   {"content_ok", m.content_ok}});
  }
  return out;
}

}  // namespace dissem::baseline
