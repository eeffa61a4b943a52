// Disconnection processes ([[topology.outage]]): random outages of links,
// drawn per run. Each matched link alternates up (exponential, mean
// mean_up_s) and down (exponential, mean mean_down_s, passing nothing) from
// start_s to the end of the run; with both_directions a link and its reverse
// go down together, as a radio that loses its peer does. The draws come from
// the run's seed, the entry's index and the link (core/random.h streams), so
// the same seed gives the same outages, and adding a link or an entry never
// moves another's. The outages become ordinary link events (the parameters
// in force, at 100 % loss while down), so every engine replays them.
#pragma once

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "scenario/link_event.h"
#include "scenario/topology_spec.h"
#include "scenario/value.h"

namespace dissem::scenario {

using Spans = std::vector<std::pair<double, double>>;  // [start, end) in seconds, sorted, disjoint

// Bounds the outages per link and run, so that a typo (a mean of 0.001 s
// over a day) fails loudly instead of writing millions of events.
inline constexpr std::size_t kMaxOutagesPerLink = 10'000;

// Per directed link, its merged down intervals before horizon_s.
std::map<Pair, Spans> outage_intervals(const std::vector<OutageSpec>& specs, const std::set<Pair>& links,
                                       const Names& names, std::uint64_t seed, double horizon_s,
                                       const std::string& source);

// The events with the outages folded in: while a link is down each of its
// events is written disabled; at an outage's start and end the parameters
// in force then are written (disabled, then as they are).
std::vector<LinkEvent> apply_outages(const std::vector<LinkEvent>& events, const std::map<Pair, Spans>& down);

}  // namespace dissem::scenario
