// Time inside the emulator: signed 64-bit nanoseconds. The link model runs on
// "run time" (zero at the ready line), the event loop on CLOCK_MONOTONIC; both
// are plain nanosecond counts so the model can be driven in virtual time.
#pragma once

#include <cstdint>

namespace dissem::emu {

using TimeNs = std::int64_t;

inline constexpr TimeNs kNsPerSecond = 1'000'000'000;

// Time to put `bytes` on a wire of `bps` bits per second (bps > 0), rounded
// up to a whole nanosecond so a queue never runs faster than its rate.
// bytes is at most a jumbo frame, so bits * 1e9 stays far below 2^64.
inline TimeNs serialisation_time(std::uint64_t bytes, std::uint64_t bps) {
  const std::uint64_t bit_ns = bytes * 8 * static_cast<std::uint64_t>(kNsPerSecond);
  return static_cast<TimeNs>((bit_ns + bps - 1) / bps);
}

}  // namespace dissem::emu
