// The links of a scenario of the scenario language (scenario/expansion.h)
// in the simulator's terms: each ordered link's loss, burst loss, latency,
// jitter and duplicates; the timeline of link changes; each node's
// transmitter rate and the medium (shared channel, queues).
//
// The simulator gives each node one transmitter: its rate is the node's
// radio ([emulator] radio_bps, radio_bps_node, shared_channel_bps) or, with
// no radio, the one capacity_bps of all its links. What it cannot honour is
// an error naming the key: links of one sender at different rates (or one
// slower than its radio), a rate that changes during the run, an unlimited
// link with no radio, the half-duplex channel, dissem-emu's extra_args.
// Nodes that run no daemon neither send nor hear: their links are disabled.
#pragma once

#include <cstdint>
#include <vector>

#include "scenario/emulator_spec.h"
#include "scenario/expansion.h"
#include "scenario/value.h"
#include "sim/scenario_file.h"

namespace dissem::sim {

// Sets `s`'s medium, default link, links, link changes and each node's
// capacity_bps (s.nodes must hold one node per scenario node, in id order).
// `runs_daemon[i]`: whether node i + 1 runs dissemd; `fallback_bps[i]` its
// rate when it sends on no link at all.
void apply_language_links(Scenario& s, const scenario::Expansion& x, const scenario::EmulatorSpec& emulator,
                          const scenario::Names& names, const std::vector<bool>& runs_daemon,
                          const std::vector<std::uint64_t>& fallback_bps);

}  // namespace dissem::sim
