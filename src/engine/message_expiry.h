// Message expiry on the air: absolute Unix milliseconds, sent as their low
// 32 bits and resolved by the receiver to the instant nearest its own clock
// (serial-number arithmetic). Unambiguous while the expiry lies within
// 2^31 ms (24.8 days) of the receiver's clock: a publisher accepts expiries
// at most kMaxExpiryAhead ahead, and an expired message is never sent, so
// every copy on the air is within range of a clock that is not off by more
// than the remaining margin (18 hours).
#pragma once

#include <cstdint>

#include "core/types.h"

namespace dissem::engine {

inline constexpr std::uint64_t kMaxExpiryAhead = 24ULL * 24 * 3600 * 1000;  // 24 days, in ms

// The wire form of an expiry (0 = never).
inline std::uint32_t wire_expiry(std::uint64_t expiry_ms) {
  if (expiry_ms == 0) return 0;
  const auto low = static_cast<std::uint32_t>(expiry_ms);
  return low == 0 ? 1 : low;  // 0 means never: a millisecond later instead
}

// The absolute expiry (Unix ms) a wire value names, seen at `now` (0 = never).
inline std::uint64_t resolve_expiry(std::uint32_t wire, Micros now) {
  if (wire == 0) return 0;
  const std::uint64_t now_ms = to_unix_millis(now);
  const auto delta = static_cast<std::int32_t>(wire - static_cast<std::uint32_t>(now_ms));
  const auto at = static_cast<std::int64_t>(now_ms) + delta;
  return at <= 0 ? 1 : static_cast<std::uint64_t>(at);
}

// What a sender puts on the air resolves back to the expiry it holds: the
// expiry the publisher signs, caches and serves is this one.
inline std::uint64_t on_air_expiry(std::uint64_t expiry_ms) {
  return expiry_ms != 0 && static_cast<std::uint32_t>(expiry_ms) == 0 ? expiry_ms + 1 : expiry_ms;
}

}  // namespace dissem::engine
