// Transmit budget of a node: a pacer at the configured rate, and the split of
// that rate between the node's own publications and the repairs it serves.
#pragma once

#include <algorithm>
#include <cstdint>

#include "core/types.h"

namespace dissem::engine {

// Virtual-clock pacing (a token bucket with a depth of `burst`): each
// datagram pushes the next permitted send time forward by its serialisation
// time at the configured rate, counting the IP/UDP bytes below our payload.
//
// The depth is time, as in the kernel's TCP pacing: on a fast link a host
// cannot wake up for every slot (a 1,400-byte datagram lasts 2 µs at
// 6 Gbit/s) and sends what a millisecond allows at once; on a slow link the
// same millisecond is far less than one datagram and changes nothing.
class Pacer {
 public:
  static constexpr Micros kDefaultBurst = 1000;

  Pacer(std::uint64_t rate_bps, std::uint32_t per_datagram_overhead, Micros burst)
      : rate_bps_(std::max<std::uint64_t>(rate_bps, 1)), overhead_(per_datagram_overhead), burst_(burst) {}

  bool can_send(Micros now) const { return now >= next_send_; }
  Micros next_send_time() const { return next_send_; }

  void on_sent(std::size_t bytes, Micros now) {
    next_send_ = std::max(next_send_, now - burst_) + transmit_time(bytes);
  }

  Micros transmit_time(std::size_t bytes) const {
    const auto bits = static_cast<std::uint64_t>(bytes + overhead_) * 8;
    return static_cast<Micros>((bits * static_cast<std::uint64_t>(kSeconds) + rate_bps_ - 1) / rate_bps_);
  }

  std::uint64_t rate_bps() const { return rate_bps_; }
  // From the next datagram on (channel sharing adapts it as occupancy changes).
  void set_rate(std::uint64_t rate_bps) { rate_bps_ = std::max<std::uint64_t>(rate_bps, 1); }

 private:
  std::uint64_t rate_bps_;
  std::uint32_t overhead_;
  Micros burst_;
  Micros next_send_ = 0;
};

// Weighted choice between two backlogged queues: repairs get `repair_share`
// of the bytes while both have work; either gets everything when alone.
// Credit is not banked across idle periods.
class PrioritySplit {
 public:
  explicit PrioritySplit(double repair_share) : repair_share_(std::clamp(repair_share, 0.0, 1.0)) {}

  // Which queue to serve next when both are non-empty.
  bool prefer_repair() const {
    if (repair_share_ <= 0.0) return false;
    if (repair_share_ >= 1.0) return true;
    // Serve the queue that is furthest below its share of bytes.
    return static_cast<double>(repair_bytes_) * (1.0 - repair_share_) <=
           static_cast<double>(data_bytes_) * repair_share_;
  }

  void on_sent(bool repair, std::size_t bytes, bool other_backlogged) {
    if (!other_backlogged) {
      data_bytes_ = repair_bytes_ = 0;
      return;
    }
    (repair ? repair_bytes_ : data_bytes_) += bytes;
  }

 private:
  double repair_share_;
  std::uint64_t data_bytes_ = 0;
  std::uint64_t repair_bytes_ = 0;
};

}  // namespace dissem::engine
