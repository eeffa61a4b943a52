// The instant the tests start their nodes and stores at: a Unix time, as the
// hosts feed the engine (1.7e9 s, November 2023), and the simulator's epoch
// (sim::kSimEpoch is the same instant).
#pragma once

#include "core/types.h"

namespace dissem::test {

inline constexpr Micros kT0 = Micros{1'700'000'000} * kSeconds;

}  // namespace dissem::test

using dissem::test::kT0;
