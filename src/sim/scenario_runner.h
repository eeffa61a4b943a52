// Runs a Scenario (scenario_file.h) in virtual time: every experiment of
// dissem-sim, from the paper's (paper_scenarios.h) to the multi-hop ones
// (topologies.h) and scenario files, goes through run_scenario.
//
// A run has four phases: build (nodes in order, then links), schedule (link
// changes, then each node's subscriptions, then every publication's
// messages, one event each), run (until every node has what it expects, or
// the scenario's duration), measure (scenario_metrics.h). Events of the
// same moment run in that order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/types.h"
#include "engine/config.h"
#include "engine/stats.h"
#include "sim/medium.h"
#include "sim/scenario_file.h"
#include "sim/scenario_metrics.h"
#include "sim/simulation.h"

namespace dissem::sim {

std::uint64_t kbps_to_bps(double kbps);

enum class NodeRole { Sender, Receiver, Relay };

// The engine configuration every scenario node starts from: the one place to
// tune the engine for the experiments. The run then sets the node's own
// fields (ScenarioNode) and applies its engine settings last.
engine::EngineConfig experiment_node_config(std::uint64_t capacity_bps, NodeRole role);

// What every run reports beside its own metrics.
struct RunSummary {
  Micros finished_at = 0;  // virtual time the run stopped
  bool all_complete = false;
  MediumStats medium;  // as at finished_at
  std::vector<engine::Stats> node_stats;
  SimStats sim;
  std::uint64_t trace_hash = 0;
};

struct ScenarioResult {
  std::string source;
  std::uint64_t seed = 0;
  std::vector<ScenarioNodeOutcome> nodes;  // in the scenario's node order
  ScenarioMetrics metrics;
  RunSummary run;
};

// Throws engine::ConfigError for a bad engine setting of a node.
ScenarioResult run_scenario(const Scenario& scenario);

}  // namespace dissem::sim
