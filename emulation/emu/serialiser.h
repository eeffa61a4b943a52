// Drop-tail serialisation queues, computed arithmetically: frames leave a
// queue in order, so the end of each frame's transmission is known the
// moment it is admitted and no per-frame timer is needed. The queue limit
// counts frames waiting to go on the air, not the one being sent (as the
// simulator's medium does), so a limit of 50 holds 51 frames.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "emu_time.h"

namespace dissem::emu {

// Start times of admitted frames that are not on the air yet; how many are
// still waiting at a given time is what drop-tail needs. A vector with a head
// index instead of a deque: there is one per link and an empty vector costs
// no allocation, where a libstdc++ deque allocates on construction.
class WaitingFrames {
 public:
  std::size_t count_at(TimeNs now) {
    while (head_ < starts_.size() && starts_[head_] <= now) ++head_;
    if (head_ == starts_.size()) {
      starts_.clear();
      head_ = 0;
    } else if (head_ >= 64 && head_ * 2 >= starts_.size()) {
      starts_.erase(starts_.begin(), starts_.begin() + static_cast<std::ptrdiff_t>(head_));
      head_ = 0;
    }
    return starts_.size() - head_;
  }

  // Start times are pushed in non-decreasing order (the queue is FIFO).
  void push(TimeNs start) { starts_.push_back(start); }

 private:
  std::vector<TimeNs> starts_;
  std::size_t head_ = 0;
};

// One transmitter with its own queue: a radio or one link's rate limit.
class Serialiser {
 public:
  // End of the frame's transmission, or nullopt when `limit` frames already
  // wait (drop-tail). `now` must not go backwards between calls.
  std::optional<TimeNs> admit(TimeNs now, TimeNs duration, std::size_t limit) {
    if (waiting_.count_at(now) >= limit && busy_until_ > now) return std::nullopt;
    const TimeNs start = busy_until_ > now ? busy_until_ : now;
    if (start > now) waiting_.push(start);
    busy_until_ = start + duration;
    return busy_until_;
  }

 private:
  TimeNs busy_until_ = 0;
  WaitingFrames waiting_;
};

// One transmitter shared by every sender, FIFO in order of offer, with each
// sender limited to `limit` waiting frames (so one chatty node cannot take
// the whole queue).
class SharedChannel {
 public:
  explicit SharedChannel(std::size_t senders) : waiting_(senders) {}

  std::optional<TimeNs> admit(TimeNs now, std::size_t sender_index, TimeNs duration, std::size_t limit) {
    WaitingFrames& mine = waiting_[sender_index];
    if (mine.count_at(now) >= limit && busy_until_ > now) return std::nullopt;
    const TimeNs start = busy_until_ > now ? busy_until_ : now;
    if (start > now) mine.push(start);
    busy_until_ = start + duration;
    return busy_until_;
  }

 private:
  TimeNs busy_until_ = 0;
  std::vector<WaitingFrames> waiting_;
};

}  // namespace dissem::emu
