// How large the data frames on this node's air are, smoothed: the size of
// "one fragment" that the protocol's timers scale with (engine/timing.h).
//
// The configured payload size is only an upper bound. On a link whose
// messages are small, a full-size frame is not what answers a request: a
// 65,000-byte loopback fragment lasts 8 s at 64 kbit/s and 217 s at 2,400
// bit/s, and timers scaled by it made servers treat a copy sent seconds
// before a late joiner existed as an answer to its request, and made answers
// and re-requests wait minutes. So the timers follow the frames actually on
// the air: every data-bearing datagram sent or heard (fragments, coded and
// window symbols, bundles) moves an exponential average, kept within [64 B,
// the full-size frame]. Before any is seen it starts at the smaller of the
// full-size frame and one of the default payload (engine/config.h): a node
// that has heard nothing yet must not wait as if every frame were the
// largest possible.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace dissem::engine {

class FrameSizeEstimate {
 public:
  static constexpr std::uint32_t kMinFrame = 64;

  FrameSizeEstimate(std::uint32_t initial, std::uint32_t largest)
      : largest_(std::max(largest, kMinFrame)), mean_(std::clamp<double>(initial, kMinFrame, largest_)) {}

  // One data-bearing datagram of `bytes` on the air (sent or heard).
  void on_frame(std::size_t bytes) {
    const double b = std::clamp<double>(static_cast<double>(bytes), kMinFrame, largest_);
    mean_ += (b - mean_) / 8;
  }
  std::uint32_t bytes() const { return static_cast<std::uint32_t>(mean_ + 0.5); }

 private:
  double largest_;
  double mean_;
};

}  // namespace dissem::engine
