#include "half_duplex_channel.h"

#include <stdexcept>
#include <utility>

namespace dissem::emu {

HalfDuplexChannel::HalfDuplexChannel(std::size_t nodes, HalfDuplexParams params)
    : params_(params), queues_(nodes), on_air_spans_(nodes) {
  if (params_.turnaround < 0 || params_.max_hold < 0)
    throw std::invalid_argument("half-duplex turnaround and max hold must not be negative");
}

bool HalfDuplexChannel::offer(TimeNs now, NodeId sender, Payload frame, TimeNs duration, std::size_t limit) {
  auto& queue = queues_[sender - 1];
  // The frame on the air is not waiting; an idle channel takes the frame at once.
  if (queue.size() >= limit && on_air_) return false;
  queue.push_back({std::move(frame), duration});
  start_next(now);
  return true;
}

std::optional<TimeNs> HalfDuplexChannel::next_end() const {
  if (!on_air_) return std::nullopt;
  return on_air_->end;
}

HalfDuplexChannel::Transmission HalfDuplexChannel::finish() {
  Transmission done = std::move(*on_air_);
  on_air_.reset();
  quiet_since_ = done.end;
  start_next(done.end);
  return done;
}

std::optional<NodeId> HalfDuplexChannel::next_holder(TimeNs now) const {
  const std::size_t n = queues_.size();
  const bool holder_waits = holder_ != 0 && !queues_[holder_ - 1].empty();
  bool others_wait = false;
  for (NodeId id = 1; id <= n; ++id) others_wait = others_wait || (id != holder_ && !queues_[id - 1].empty());
  const bool hold_left = params_.max_hold == 0 || now - holder_since_ < params_.max_hold;
  if (holder_waits && (hold_left || !others_wait)) return holder_;
  // Round robin from the node after the holder (bounded: n candidates).
  for (std::size_t step = 1; step <= n; ++step) {
    const NodeId id = (holder_ + step - 1) % n + 1;
    if (id != holder_ && !queues_[id - 1].empty()) return id;
  }
  return std::nullopt;
}

void HalfDuplexChannel::start_next(TimeNs now) {
  if (on_air_) return;
  const auto next = next_holder(now);
  if (!next) return;
  TimeNs start = now;
  // Spans over by now can no longer matter: every later query is at or after it.
  auto& spans = on_air_spans_[*next - 1];
  while (!spans.empty() && spans.front().second <= now) spans.pop_front();
  if (*next == holder_ && now > quiet_since_) holder_since_ = now;  // a new transmission after a quiet spell
  if (*next != holder_) {
    if (holder_ != 0 && quiet_since_ + params_.turnaround > start) start = quiet_since_ + params_.turnaround;
    if (holder_ != 0) ++turnarounds_;
    holder_ = *next;
    holder_since_ = start;
  }
  Waiting w = std::move(queues_[holder_ - 1].front());
  queues_[holder_ - 1].pop_front();
  on_air_ = Transmission{holder_, std::move(w.frame), start, start + w.duration};
  on_air_spans_[holder_ - 1].emplace_back(on_air_->start, on_air_->end);
}

bool HalfDuplexChannel::transmitting(NodeId node, TimeNs t) {
  auto& spans = on_air_spans_[node - 1];
  // Bounded by the spans recorded; those over by t can never matter again.
  while (!spans.empty() && spans.front().second <= t) spans.pop_front();
  return !spans.empty() && spans.front().first <= t;
}

}  // namespace dissem::emu
