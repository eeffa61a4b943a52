// Bytes per second over a sliding window, in fixed memory: the window is cut
// into kBuckets equal buckets, each counting the bytes of its slice of time;
// a bucket is reused once its slice has left the window. The rate is the
// bytes of the buckets still inside the window divided by the window, so an
// idle link reads 0 one window after its last byte. Deterministic (time is
// passed in), constant size whatever the traffic: one per peer costs
// kBuckets counters.
#pragma once

#include <array>
#include <cstdint>

#include "core/types.h"

namespace dissem::engine {

class RateWindow {
 public:
  static constexpr std::size_t kBuckets = 10;

  // `window` is rounded up to a multiple of kBuckets microseconds (>= kBuckets).
  explicit RateWindow(Micros window);

  void add(Micros now, std::uint64_t bytes);
  // Bytes per second over the window ending at `now` (the bucket `now`
  // falls in counts whole: the rate leads by at most one bucket's slice).
  double bytes_per_second(Micros now) const;
  Micros window() const { return slice_ * static_cast<Micros>(kBuckets); }

 private:
  std::int64_t slice_index(Micros t) const;

  Micros slice_;
  std::array<std::uint64_t, kBuckets> bytes_{};
  std::array<std::int64_t, kBuckets> index_{};  // the slice each bucket counts
};

}  // namespace dissem::engine
