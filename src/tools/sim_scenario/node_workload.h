// What each node of a scenario's system does, read for dissem-sim: the
// dissemd it runs (its command line parsed by dissemd's own parser, so the
// engine and controllers are configured exactly as dissemd would), and its
// dissem-load commands (parsed with dissem-load's own options), each at its
// role's start delay. ready_probe and collect only observe a run: they are
// not read. Any other program, an environment, a second dissemd on a node
// or dissem-load without dissemd is an error naming the key.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "daemon/daemon_config.h"
#include "scenario/scenario_document.h"
#include "scenario/system_spec.h"
#include "scenario/value.h"
#include "tools/load/load_publisher.h"
#include "tools/load/load_receiver.h"

namespace dissem::sim_scenario {

struct Publish {
  load::PublishArgs args;
  double at_s = 0;  // the role's start delay
  std::string key;
};

struct Receive {
  load::ReceiveArgs args;
  double at_s = 0;
  std::string key;
};

struct NodeWorkload {
  std::optional<daemon::DaemonConfig> daemon;
  std::string daemon_key;
  std::vector<Publish> publish;
  std::vector<Receive> receive;
};

// One per node, in id order; `run`: the run's placeholder values (run_names.h).
std::vector<NodeWorkload> read_node_workloads(const scenario::ScenarioDocument& doc, const scenario::SystemSpec& system,
                                              const scenario::Names& run);

}  // namespace dissem::sim_scenario
