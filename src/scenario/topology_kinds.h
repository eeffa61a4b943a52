// The keys of each topology kind (grid, geometric, partition-heal, eel),
// read into a TopologySpec; read_topology (topology_spec.h) calls it.
#pragma once

#include <filesystem>
#include <set>
#include <string>

#include "scenario/node_set.h"
#include "scenario/table_reader.h"
#include "scenario/topology_spec.h"

namespace dissem::scenario {

void read_kind_keys(const TableReader& t, TopologySpec& spec, const NodeSet& nodes, const std::set<std::string>& names,
                    const std::filesystem::path& scenario_dir);

}  // namespace dissem::scenario
