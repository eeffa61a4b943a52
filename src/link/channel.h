// One transmitter and the frames waiting for it: a node's radio (one
// sender), a link's rate limit (one sender), or one channel shared by
// several senders. The model of rates and queues for the simulator's medium
// and the emulator alike:
//  * one frame on the air at a time; its time on the air is fixed when it
//    starts (the driver's `duration`, from the rate in force then);
//  * drop-tail per sender: a frame is refused when `limit` frames of its
//    sender already wait; the limit counts frames waiting, not the one on the
//    air (so a limit of 50 holds 51), and an idle channel always takes one;
//  * who goes next: Turns::fifo, the oldest frame offered (all senders in one
//    order of offer); Turns::round_robin, a half-duplex net (STANAG 5066):
//    the holder sends its waiting frames back to back and hands over when
//    its queue is empty or, while others wait, once it has held the channel
//    for max_hold (0: no limit; a frame is never cut); the next holder is the
//    next sender in index order with a frame waiting;
//  * handing the channel to another sender costs `turnaround`: its first
//    frame starts no earlier than turnaround after the last one ended (no
//    wait after a quiet spell that long, none for the same sender again);
//  * transmitting(): a half-duplex radio hears nothing while it sends.
//
// Event-driven, with the events left to the driver: offer(), then start(now)
// puts a frame on the air if the channel is idle; the driver calls finish()
// at that transmission's end, then start(end) again. Senders are indices
// 0..senders-1. A frame offered at the very time the one on the air ends
// finds the channel busy if the driver has not called finish() yet: the
// driver's order of events decides (the emulator ends transmissions first,
// the simulator runs events in the order they were scheduled).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <limits>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "link/link_time.h"

namespace dissem::link {

enum class Turns { fifo, round_robin };

struct ChannelParams {
  Turns turns = Turns::fifo;
  Time turnaround = 0;
  Time max_hold = 0;  // round_robin only; 0: a holder keeps the channel while it has frames
};

template <class Payload>
class Channel {
 public:
  struct Transmission {
    std::size_t sender = 0;
    Payload payload{};
    Time start = 0;
    Time end = 0;
  };

  Channel(std::size_t senders, std::size_t limit, ChannelParams params = {})
      : params_(params), limit_(limit), queues_(senders), spans_(senders) {
    if (params_.turnaround < 0 || params_.max_hold < 0)
      throw std::invalid_argument("channel turnaround and max hold must not be negative");
  }

  // One more sender (index senders()-1), as nodes join a shared medium.
  void add_sender() {
    queues_.emplace_back();
    spans_.emplace_back();
  }
  std::size_t senders() const { return queues_.size(); }

  bool busy() const { return on_air_.has_value(); }
  std::size_t waiting(std::size_t sender) const { return queues_[sender].size(); }
  bool has_room(std::size_t sender) const { return !on_air_ || queues_[sender].size() < limit_; }

  // Queues a frame; false (refused, drop-tail) when the sender has no room.
  bool offer(std::size_t sender, Payload payload) {
    if (!has_room(sender)) return false;
    queues_[sender].push_back(Waiting{next_order_++, std::move(payload)});
    return true;
  }

  // If the channel is idle and a frame waits, puts the next one on the air
  // at `now` (later after a turnaround) for duration(sender, payload), and
  // returns it; else null. `now` must not go backwards between calls.
  template <class DurationOf>
  const Transmission* start(Time now, DurationOf&& duration) {
    if (on_air_) return nullptr;
    const std::size_t next = next_sender(now);
    if (next == kNone) return nullptr;
    Time begin = now;
    forget_spans(next, now);
    if (next == holder_ && now > quiet_since_) holder_since_ = now;  // a new transmission after a quiet spell
    if (next != holder_) {
      if (holder_ != kNone && quiet_since_ + params_.turnaround > begin) begin = quiet_since_ + params_.turnaround;
      if (holder_ != kNone) ++turnarounds_;
      holder_ = next;
      holder_since_ = begin;
    }
    Waiting w = std::move(queues_[next].front());
    queues_[next].pop_front();
    const Time length = duration(next, static_cast<const Payload&>(w.payload));
    on_air_ = Transmission{next, std::move(w.payload), begin, begin + length};
    spans_[next].emplace_back(on_air_->start, on_air_->end);
    return &*on_air_;
  }

  // End of the transmission on the air, if any: when finish() is due.
  std::optional<Time> next_end() const {
    if (!on_air_) return std::nullopt;
    return on_air_->end;
  }

  // Takes the transmission on the air off it (the frame has been sent).
  Transmission finish() {
    if (!on_air_) throw std::logic_error("finish() on an idle channel");
    Transmission done = std::move(*on_air_);
    on_air_.reset();
    quiet_since_ = done.end;
    return done;
  }

  // Whether `sender` is on the air at `t` (t at or after every earlier
  // call's time: older transmissions are forgotten).
  bool transmitting(std::size_t sender, Time t) {
    forget_spans(sender, t);
    const auto& spans = spans_[sender];
    return !spans.empty() && spans.front().first <= t;
  }

  // Hand-overs from one sender to another.
  std::uint64_t turnarounds() const { return turnarounds_; }

 private:
  static constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
  struct Waiting {
    std::uint64_t order = 0;  // of offer, across senders
    Payload payload;
  };

  std::size_t next_sender(Time now) const {
    return params_.turns == Turns::fifo ? oldest_waiting() : next_in_turn(now);
  }

  // Bounded: one look at each sender's oldest frame.
  std::size_t oldest_waiting() const {
    std::size_t best = kNone;
    for (std::size_t s = 0; s < queues_.size(); ++s)
      if (!queues_[s].empty() && (best == kNone || queues_[s].front().order < queues_[best].front().order)) best = s;
    return best;
  }

  std::size_t next_in_turn(Time now) const {
    const std::size_t n = queues_.size();
    const bool holder_waits = holder_ != kNone && !queues_[holder_].empty();
    bool others_wait = false;
    for (std::size_t s = 0; s < n; ++s) others_wait = others_wait || (s != holder_ && !queues_[s].empty());
    const bool hold_left = params_.max_hold == 0 || now - holder_since_ < params_.max_hold;
    if (holder_waits && (hold_left || !others_wait)) return holder_;
    // Round robin from the sender after the holder (bounded: n candidates).
    const std::size_t first = holder_ == kNone ? 0 : holder_ + 1;
    for (std::size_t step = 0; step < n; ++step) {
      const std::size_t s = (first + step) % n;
      if (s != holder_ && !queues_[s].empty()) return s;
    }
    return kNone;
  }

  // Spans over by `t` can no longer matter: every later query is at or after it.
  void forget_spans(std::size_t sender, Time t) {
    auto& spans = spans_[sender];
    while (!spans.empty() && spans.front().second <= t) spans.pop_front();
  }

  ChannelParams params_;
  std::size_t limit_;
  std::vector<std::deque<Waiting>> queues_;
  std::optional<Transmission> on_air_;
  std::size_t holder_ = kNone;  // last sender to transmit
  Time holder_since_ = 0;       // start of the holder's turn
  Time quiet_since_ = 0;        // end of the last transmission
  std::vector<std::deque<std::pair<Time, Time>>> spans_;  // per sender, [start, end) on the air, by start
  std::uint64_t next_order_ = 0;
  std::uint64_t turnarounds_ = 0;
};

}  // namespace dissem::link
