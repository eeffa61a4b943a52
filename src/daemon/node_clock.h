// The two clocks a daemon hands its engine (engine/wall_clock.h).
#pragma once

#include <chrono>

#include "core/types.h"

namespace dissem::daemon {

// The system clock (CLOCK_REALTIME) in Unix microseconds: it steps when
// someone sets it.
Micros unix_now();

// The engine's `now`: the system clock when the daemon started, advanced
// from then on by the monotonic clock (CLOCK_MONOTONIC, which NTP slews but
// nothing steps). Its timers and pacing never jump with the system clock;
// the engine's wall time follows that clock by its own policy, from what
// the daemon reports (Node::on_system_clock).
class NodeClock {
 public:
  NodeClock() : start_unix_(unix_now()), start_(std::chrono::steady_clock::now()) {}
  Micros now() const {
    return start_unix_ +
           std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  Micros start_unix_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace dissem::daemon
