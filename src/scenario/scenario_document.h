// A scenario file of the scenario language (emulation/README.md): name,
// time limit, [nodes], [matrix], [topology], [emulator], [networks] and [systems], every
// key checked (types, bounds, node and role references, placeholder names).
// [profiles], seeds and the run's timeouts belong to the runner; they are
// known keys, read by it.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "scenario/cell.h"
#include "scenario/emulator_spec.h"
#include "scenario/network_spec.h"
#include "scenario/node_set.h"
#include "scenario/param.h"
#include "scenario/system_spec.h"
#include "scenario/topology_spec.h"

namespace dissem::scenario {

struct ScenarioDocument {
  std::string source;  // the file, as errors name it
  std::string name;
  NodeSet nodes;
  Matrix matrix;
  std::set<std::string> names;  // the placeholders known per cell
  std::optional<Param> time_limit_s;
  TopologySpec topology;
  EmulatorSpec emulator;
  std::vector<NetworkSpec> networks;  // empty: one network of every node
  std::map<std::string, SystemSpec> systems;
  toml::table root;  // the whole file, for the engines' own sections
};

// Throws ScenarioError naming the file and key.
ScenarioDocument load_document(const std::filesystem::path& path);
ScenarioDocument parse_document(std::string_view text, const std::string& source, const std::filesystem::path& dir);

}  // namespace dissem::scenario
