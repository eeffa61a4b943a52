// Frames for the model tests: only the destination MAC and the length matter.
#pragma once

#include <algorithm>
#include <memory>

#include "ethernet.h"
#include "link_model.h"

namespace dissem::emu::testing {

constexpr TimeNs kMs = 1'000'000;
constexpr TimeNs kForever = 1'000'000 * kNsPerSecond;  // a deadline no test reaches

inline FramePtr frame_to(const MacAddress& destination, std::size_t size = 100) {
  auto f = std::make_shared<Frame>(size, std::uint8_t{0});
  std::copy(destination.begin(), destination.end(), f->begin());
  return f;
}

inline FramePtr broadcast_frame(std::size_t size = 100) {
  return frame_to({0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, size);
}

}  // namespace dissem::emu::testing
