// What the node tells its applications besides deliveries (Event,
// node_types.h): peers appearing and going silent, link changes, messages
// evicted or skipped, and integrity alarms. Alarms are limited to one a
// second: a forger or a broken peer must not flood the applications.
#pragma once

#include <deque>
#include <optional>
#include <utility>

#include "core/types.h"
#include "engine/node_types.h"

namespace dissem::engine {

class ApplicationEvents {
 public:
  static constexpr Micros kAlarmInterval = 1 * kSeconds;

  void push(Event e) { queue_.push_back(std::move(e)); }

  // An integrity alarm about `id` (from `peer`, 0: unknown): queued unless
  // another was raised less than kAlarmInterval ago.
  void alarm(Event::Kind kind, const MessageId& id, Micros now, NodeId peer = 0) {
    if (last_alarm_ != 0 && now - last_alarm_ < kAlarmInterval) return;
    last_alarm_ = now;
    push(Event{kind, peer, id});
  }

  // The oldest event not yet taken.
  std::optional<Event> pop() {
    if (queue_.empty()) return std::nullopt;
    Event e = std::move(queue_.front());
    queue_.pop_front();
    return e;
  }

 private:
  std::deque<Event> queue_;
  Micros last_alarm_ = 0;  // when the last alarm was queued
};

}  // namespace dissem::engine
