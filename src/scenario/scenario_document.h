// A scenario file of the scenario language (emulation/README.md) as far as
// its expansion goes: name, time limit, [nodes], [matrix] and [topology],
// every key checked (types, bounds, node and role references, placeholder
// names). The other sections ([systems], [emulator], [profiles], seeds and
// the run's timeouts) belong to the engines that run it; they are known
// keys, read by them.
#pragma once

#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "scenario/cell.h"
#include "scenario/node_set.h"
#include "scenario/param.h"
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
  toml::table root;  // the whole file, for the engines' own sections
};

// Throws ScenarioError naming the file and key.
ScenarioDocument load_document(const std::filesystem::path& path);
ScenarioDocument parse_document(std::string_view text, const std::string& source, const std::filesystem::path& dir);

}  // namespace dissem::scenario
