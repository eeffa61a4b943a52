// Turns experiment results into a readable table or JSON. Pure formatting:
// the same result always gives the same text (fixed precision, no clocks).
#pragma once

#include <string>
#include <vector>

#include "sim/experiments.h"

namespace dissem::sim {

std::string format_baseline(const BaselineResult& r);
std::string format_tactical(const TacticalResult& r);
std::string format_scenario(const ScenarioResult& r);

std::string baseline_json(const BaselineResult& r);
std::string tactical_json(const TacticalResult& r);
std::string scenario_json(const ScenarioResult& r);

// The multi-hop figures of a scenario run (delivery ratio, latency,
// transmissions per delivered message, time to full delivery after the last
// link change), as a two-column table.
std::string format_metrics(const ScenarioMetrics& m);

// Bytes on the air by category per node and in total, with node names.
std::string format_medium(const MediumStats& m, const std::vector<std::string>& names);

}  // namespace dissem::sim
