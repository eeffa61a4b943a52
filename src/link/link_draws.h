// The random decisions for one copy on one ordered link, always in this
// order, each draw made only when it can matter:
//  1. survives(): the burst chain steps (one uniform, only with spec.burst),
//     then one uniform against the pass probability; a disabled link draws
//     nothing and passes nothing;
//  2. delay(), for a copy that survived: latency + U[0, jitter] (one draw,
//     only when jitter > 0);
//  3. duplicated(): one uniform, only when spec.duplicate > 0; a duplicate
//     then takes its own delay().
// Randomness is injected: the simulator passes its medium's one stream (so
// its traces stay those of before), the emulator one stream per link.
#pragma once

#include "core/random.h"
#include "link/gilbert_elliott.h"
#include "link/link_spec.h"

namespace dissem::link {

// `chain` is the link's burst state; it may be null when spec.burst is unset.
bool survives(Random& rng, const LinkSpec& spec, GilbertElliott* chain);
Time delay(Random& rng, const LinkSpec& spec);
bool duplicated(Random& rng, const LinkSpec& spec);

}  // namespace dissem::link
