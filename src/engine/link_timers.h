// Control timers derived from the link, for the ones left at 0 in the
// configuration: a user gives `link_capacity_bps` and nothing else, from
// 75 bit/s HF to gigabit Ethernet.
//
// - beacon_interval: the period at which a typical beacon takes half the
//   control share (`control_share`, 5 % of capacity by default) of the
//   link, never below 1 s. On links where that exceeds 1 s ("slow"
//   links), beacons with nothing new back off to 16x that period, and a
//   node sending its own first pass defers them as long (its data shows it
//   is alive); receivers count first-pass data as hearing the publisher.
// - peer_silent_after: 3x the longest beacon period, never below 5 s.
// - traffic_window: the incoming-traffic meter's window, two full frames'
//   air time, never below 500 ms.
// - hearsay_lifetime: 4x the longest beacon period, never below 60 s.
// The other half of the control share bounds requests: after an MFR of S
// bytes the next round waits S*8 / (share/2 * capacity).
// (Timing, timing.h, derives the serving and request timers from the
// same capacity and the measured round trip.)
#pragma once

#include <algorithm>
#include <cstdint>

#include "engine/config.h"
#include "core/types.h"

namespace dissem::engine {

// Bytes a typical beacon puts on the air (a few peers' echoes and streams).
constexpr std::uint64_t kTypicalBeaconBytes = 64;
// Quiet beacons on slow links back off to this multiple of the period.
constexpr Micros kBeaconBackoff = 16;

inline double control_bps(const EngineConfig& c) {
  return c.control_share / 2.0 * static_cast<double>(std::max<std::uint64_t>(c.link_capacity_bps, 1));
}

// Air time of `bytes` (plus the datagram's framing) within half the control share.
inline Micros control_spacing(const EngineConfig& c, std::size_t bytes) {
  const double bits = 8.0 * static_cast<double>(bytes + c.per_datagram_overhead);
  return static_cast<Micros>(bits / control_bps(c) * static_cast<double>(kSeconds));
}

inline bool slow_link(const EngineConfig& c) { return c.beacon_interval > 1 * kSeconds; }
inline Micros beacon_interval_max(const EngineConfig& c) {
  return slow_link(c) ? kBeaconBackoff * c.beacon_interval : c.beacon_interval;
}

// The largest beacon: two seconds of the link, between 96 bytes and a fragment.
inline std::size_t beacon_max_bytes(const EngineConfig& c) {
  const auto two_seconds = static_cast<std::size_t>(c.link_capacity_bps / 4);
  return std::clamp<std::size_t>(two_seconds, 96, std::max<std::size_t>(c.payload_size, 96));
}

inline EngineConfig with_link_timers(EngineConfig c) {
  if (c.beacon_interval == 0)
    c.beacon_interval = std::max<Micros>(1 * kSeconds, control_spacing(c, kTypicalBeaconBytes));
  const Micros longest = beacon_interval_max(c);
  if (c.peer_silent_after == 0) c.peer_silent_after = std::max<Micros>(5 * kSeconds, 3 * longest);
  if (c.hearsay_lifetime == 0) c.hearsay_lifetime = std::max<Micros>(60 * kSeconds, 4 * longest);
  if (c.traffic_window == 0) {
    const auto frame_bits = static_cast<double>(c.payload_size + 48 + c.per_datagram_overhead) * 8.0;
    const auto air = static_cast<Micros>(frame_bits / static_cast<double>(std::max<std::uint64_t>(c.link_capacity_bps, 1)) *
                                         static_cast<double>(kSeconds));
    c.traffic_window = std::max<Micros>(500 * kMillis, 2 * air);
  }
  return c;
}

}  // namespace dissem::engine
