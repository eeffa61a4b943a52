// An expansion as JSON, what `dissem-sim expand` prints for the runner and
// for people: the nodes (with their positions on a geometric field), the
// links at t = 0, the timeline of link events, burst loss and the outages
// drawn, in EMANE's comm effect terms (latency and jitter in seconds, loss
// and duplicates in percent, rates in bit/s).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/json.h"
#include "scenario/expansion.h"
#include "scenario/scenario_document.h"

namespace dissem::scenario {

// Link events as the expansion prints them: at_s, from, to and the comm effect.
Json link_events_json(const std::vector<LinkEvent>& events);

Json expansion_json(const ScenarioDocument& doc, const std::string& cell, std::uint64_t seed,
                    std::optional<double> horizon_s, const Expansion& x);

}  // namespace dissem::scenario
