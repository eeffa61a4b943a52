// The placeholders of a run and of each node when dissem-sim runs a
// scenario: those of the cell, the run's ({system}, {time_limit_s},
// {scenario_dir}, ...) and the node's ({node}, {node_id}, {sockdir}, ...).
// There is no network interface, namespace or run directory in the
// simulator: those take stand-in values (sim<id>, 10.77.0.<id>, sim-run/...)
// that only paths and names use; {repo} is the working directory.
#pragma once

#include <string>

#include "scenario/node_set.h"
#include "scenario/scenario_document.h"
#include "scenario/value.h"

namespace dissem::sim_scenario {

scenario::Names run_names(const scenario::ScenarioDocument& doc, const scenario::Names& cell, const std::string& system,
                          double time_limit_s);
scenario::Names node_names(const scenario::Names& run, const scenario::ScenarioNode& node);

}  // namespace dissem::sim_scenario
