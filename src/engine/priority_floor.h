// The fairness floor of the send queues: strict priority would let a
// saturating high level starve every lower one for good. Of the bytes sent
// at the top level while lower levels wait, a share (engine.priority_floor)
// is owed to them; once the credit covers a datagram, the next one goes to a
// lower level, the levels below the top taking turns from the highest down.
// Credit is not banked while nothing lower waits. A share of 0 is strict
// priority.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>

namespace dissem::engine {

class PriorityFloor {
 public:
  explicit PriorityFloor(double share) : share_(std::clamp(share, 0.0, 1.0)) {}

  // Whether the next datagram, of about `bytes`, is owed to a lower level.
  bool due(std::size_t bytes) const { return share_ > 0.0 && credit_ >= static_cast<double>(bytes); }

  // The lower level whose turn it is, given the highest level waiting below
  // `below` (a function: level -> optional level): the next one down from
  // the last served, wrapping to the highest below `top`.
  template <class HighestBelow>
  std::optional<std::uint32_t> turn(std::uint32_t top, HighestBelow&& highest_below) const {
    if (last_ && *last_ < top)
      if (auto next = highest_below(*last_)) return next;
    return highest_below(top);
  }

  // A datagram went out: at the top level (`floor_turn` false) or at a lower
  // level on the floor's account (true); `lower_waiting`: anything below the
  // top still waits.
  void on_sent(bool floor_turn, std::uint32_t level, std::size_t bytes, bool lower_waiting) {
    if (floor_turn) {
      credit_ = std::max(0.0, credit_ - static_cast<double>(bytes));
      last_ = level;
    } else {
      credit_ += share_ * static_cast<double>(bytes);
    }
    if (!lower_waiting) {
      credit_ = 0;
      last_.reset();
    }
  }

 private:
  double share_;
  double credit_ = 0;
  std::optional<std::uint32_t> last_;  // the lower level served last
};

}  // namespace dissem::engine
