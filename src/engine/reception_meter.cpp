#include "engine/reception_meter.h"

#include <algorithm>

namespace dissem::engine {

void ReceptionMeter::on_first_pass(const MessageId& message, std::uint32_t index, Micros now) {
  auto& p = per_publisher_[message.publisher];
  double expected = 1;
  if (p.last.group == message.group && p.last.seq == message.seq) {
    if (index <= p.last_index) return;  // reordered or duplicated: no evidence
    expected = index - p.last_index;
    // Pace within a message only: between messages the publisher may idle.
    const double per_index = static_cast<double>(now - p.last_at) / expected;
    p.interval = p.interval == 0 ? per_index : 0.9 * p.interval + 0.1 * per_index;
  } else if (p.last.seq == 0 || p.last.group != message.group || message.seq > p.last.seq) {
    // A new message: fragments before this index in it were lost too, and
    // so were the messages skipped since the last one of its group.
    expected = index + 1.0;
    if (p.last.seq != 0 && p.last.group == message.group) {
      const auto gap = static_cast<double>(message.seq - p.last.seq);
      expected += std::min(gap - 1.0, kHorizon);
      const double per_seq = static_cast<double>(now - p.last_at) / gap;
      p.message_interval = p.message_interval == 0 ? per_seq : 0.9 * p.message_interval + 0.1 * per_seq;
    }
  } else {
    return;  // an older message arriving late
  }
  p.last = message;
  p.last_index = index;
  p.last_at = now;
  p.expected += expected;
  p.received += 1;
  if (p.expected > kHorizon) {
    p.expected /= 2;
    p.received /= 2;
  }
}

std::optional<Micros> ReceptionMeter::fragment_interval(NodeId publisher) const {
  auto it = per_publisher_.find(publisher);
  if (it == per_publisher_.end() || it->second.interval <= 0) return std::nullopt;
  return static_cast<Micros>(it->second.interval);
}

std::optional<Micros> ReceptionMeter::message_interval(NodeId publisher) const {
  auto it = per_publisher_.find(publisher);
  if (it == per_publisher_.end() || it->second.message_interval <= 0) return std::nullopt;
  return static_cast<Micros>(it->second.message_interval);
}

std::optional<double> ReceptionMeter::loss(NodeId publisher) const {
  auto it = per_publisher_.find(publisher);
  if (it == per_publisher_.end() || it->second.expected < kMinEvidence) return std::nullopt;
  const double l = 1.0 - it->second.received / it->second.expected;
  return l < 0 ? 0.0 : l;
}

}  // namespace dissem::engine
