// A neighbour's clock against ours, from the beacon echoes the nodes already
// exchange (no field of its own on the wire). Expiry is absolute (Unix time
// on every node), so clocks that disagree make messages expire early or
// late; the offset shows it (dissem peers, metrics) and an event is raised
// past engine.max_clock_skew_ms.
//
// Our beacon leaves at t1 (our clock). The neighbour hears it and, `held`
// later by its own clock, sends a beacon stamped t3 (its clock) that
// echoes ours; we hear that at t4 (our clock). With the same delay each way,
// the neighbour's clock minus ours is ((t3 - held - t1) + (t3 - t4)) / 2, as
// NTP computes it; the round trip t4 - t1 - held needs no shared clock. A
// queue on one side only makes the delays unequal, so of the samples in a
// window the one with the smallest round trip is kept (PeerTable).
#pragma once

#include "core/types.h"

namespace dissem::engine {

// How long the smallest-round-trip sample is kept before a newer one
// replaces it whatever its round trip.
inline constexpr Micros kClockWindow = 60 * kSeconds;

// The neighbour's clock minus ours (see above). `t3` is 0 when the beacon
// carried no stamp; callers skip such samples.
constexpr Micros clock_offset(Micros t1, Micros held, Micros t3, Micros t4) {
  return ((t3 - held - t1) + (t3 - t4)) / 2;
}

// Whether to raise a skew event now: the offset is past `limit` by more than
// its `uncertainty` (half the sample's round trip: on a slow link a queue on
// one side can fake that much), and no event was raised since it last came
// back under half the limit (a hovering offset raises one event, not one per
// beacon). Updates `reported`. limit 0: never.
inline bool clock_skew_crossed(Micros offset, Micros uncertainty, Micros limit, bool& reported) {
  if (limit <= 0) return false;
  const Micros magnitude = offset < 0 ? -offset : offset;
  if (magnitude - uncertainty > limit) {
    if (reported) return false;
    reported = true;
    return true;
  }
  if (magnitude < limit / 2) reported = false;
  return false;
}

}  // namespace dissem::engine
