// Time in the link-effects model: a signed 64-bit count in the driver's own
// unit (the simulator counts microseconds, the emulator nanoseconds). The
// model never converts: it is told how many units make a second.
#pragma once

#include <cstdint>

namespace dissem::link {

using Time = std::int64_t;

// Time to put `bytes` on a channel of `bps` bits per second (bps > 0), in
// units of which `per_second` make a second, rounded up so a transmitter
// never runs faster than its rate (and a sender paced at exactly the rate
// never finds it still busy). bytes * 8 * per_second must stay below 2^64:
// a jumbo frame in nanoseconds is 7.2e13.
inline Time transmit_time(std::uint64_t bytes, std::uint64_t bps, Time per_second) {
  const std::uint64_t bit_units = bytes * 8 * static_cast<std::uint64_t>(per_second);
  return static_cast<Time>((bit_units + bps - 1) / bps);
}

}  // namespace dissem::link
