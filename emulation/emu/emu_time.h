// Time inside the emulator: signed 64-bit nanoseconds. The link model runs on
// "run time" (zero at the ready line), the event loop on CLOCK_MONOTONIC; both
// are plain nanosecond counts so the model can be driven in virtual time.
#pragma once

#include <cstdint>

#include "link/link_time.h"

namespace dissem::emu {

using TimeNs = std::int64_t;

inline constexpr TimeNs kNsPerSecond = 1'000'000'000;

// Time to put `bytes` on a wire of `bps` bits per second (bps > 0), rounded
// up to a whole nanosecond (the link-effects model's rule).
inline TimeNs serialisation_time(std::uint64_t bytes, std::uint64_t bps) {
  return link::transmit_time(bytes, bps, kNsPerSecond);
}

}  // namespace dissem::emu
