// [systems.NAME] of a scenario: per role, the daemon each of its nodes
// runs, the readiness probe, the command, the collection command, whether
// the run waits for the command, its start delay and environment. Commands
// are text for /bin/sh -c or an argv list, with placeholders. Read and
// checked here; an engine decides what it can run (dissem-sim: dissemd and
// dissem-load, tools/sim_scenario/).
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "scenario/node_set.h"
#include "scenario/param.h"
#include "scenario/table_reader.h"
#include "scenario/template_text.h"

namespace dissem::scenario {

struct CommandSpec {
  std::string key;  // "systems.dissem.roles.publisher.command"
  bool shell = true;  // text for /bin/sh -c; false: an argv list
  std::vector<TemplateText> parts;  // the text, or the argv words
};

struct RoleSpec {
  std::string role;
  std::string key;  // "systems.dissem.roles.publisher"
  std::optional<CommandSpec> daemon;
  std::optional<CommandSpec> ready_probe;
  std::optional<CommandSpec> command;
  std::optional<CommandSpec> collect;
  bool wait = true;
  std::optional<Param> start_delay_s;
  std::map<std::string, TemplateText> env;
};

struct SystemSpec {
  std::string name;
  std::string description;
  std::map<std::string, RoleSpec> roles;
  std::map<std::string, TemplateText> env;
};

// The placeholders known per run (`cell`: those known per cell) and per node.
std::set<std::string> run_name_set(const std::set<std::string>& cell, const NodeSet& nodes);
std::set<std::string> node_name_set(const std::set<std::string>& run);

// Reads [systems] from the top level; `cell`: the placeholders known per cell;
// `networks`: the names of [networks] (with several, each adds subnet_NAME and
// broadcast_NAME per run, interface_NAME and address_NAME per node).
std::map<std::string, SystemSpec> read_systems(const TableReader& top, const NodeSet& nodes,
                                               const std::set<std::string>& cell,
                                               const std::vector<std::string>& networks = {});

}  // namespace dissem::scenario
