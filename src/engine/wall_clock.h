// The node's two times.
//
// `now`, which every call brings, is the node's own timeline: the host feeds
// it from a monotonic clock (the daemon: anchored to the system clock at
// start-up, then advanced by CLOCK_MONOTONIC), so it never steps. Timers,
// pacing and every interval are measured on it.
//
// Absolute Unix time -- the expiry messages carry, the stamps beacons carry
// for clock offsets -- is `wall(now)`: `now` plus an offset that tracks the
// host's system clock. The host reports that clock (on_system_clock); how
// the offset follows it is this file's policy:
//   - a difference of up to kClockFollow (an NTP slew, a small correction) is
//     taken at once;
//   - a larger one is a step. If the neighbours' clocks (their median offset,
//     clock_offset.h) are nearer the system clock than our wall time, it is a
//     correction and is taken at once. Otherwise (they side with our time, or
//     no neighbour's clock is measured) the wall time moves towards the system
//     clock by at most kClockSlew of the time that passes.
// So a clock stepped an hour on one node expires nothing early in a mass,
// brings back nothing expired (wall time never goes back), and stalls no
// timer (they run on `now`). A clock set right at boot, when the
// neighbours already agree with it, is followed at once.
#pragma once

#include <optional>
#include <string>

#include "core/types.h"

namespace dissem::engine {

inline constexpr Micros kClockFollow = kSeconds;
inline constexpr double kClockSlew = 0.01;  // of the time that passes: 36 s an hour

class WallClock {
 public:
  // What a step did, once per step (the host logs it; an event carries it).
  struct Step {
    Micros divergence = 0;  // system clock minus our wall time, when the step was seen
    bool adopted = false;   // taken at once (the neighbours agree with the system clock)
    std::string detail;     // for a person
  };

  Micros wall(Micros now) const { return now + offset_; }
  // Wall time minus `now`.
  Micros offset() const { return offset_; }
  // The system clock minus our wall time at the last report: what is still
  // being slewed away (0 when the two agree).
  Micros divergence() const { return divergence_; }
  int steps() const { return steps_; }

  // The host's system clock reads `system_now` at `now`. `peers_offset` is
  // the neighbours' median clock minus our wall time (nullopt: none measured).
  // Returns a Step when a step is first seen, or when one is adopted later.
  std::optional<Step> on_system_clock(Micros system_now, Micros now, std::optional<Micros> peers_offset);

 private:
  // Takes the whole difference `d` at once; no step is under way after it.
  void follow(Micros d);

  Micros offset_ = 0;
  Micros divergence_ = 0;
  std::optional<Micros> last_now_;
  bool in_step_ = false;
  int steps_ = 0;
};

}  // namespace dissem::engine
