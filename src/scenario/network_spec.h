// [networks] of a scenario: the emulated networks when there is more than
// one, so that a node can sit on two (a gateway between a MANET and an HF
// net). Each [networks.NAME] names its nodes and the interface they reach it
// by, and may set its own [networks.NAME.emulator] (one dissem-emu per
// network; keys it leaves out come from [emulator]). Without [networks],
// every node is on one network through emu0, as before.
//
// Networks are taken in name order: the first holds node i's emu0 unless it
// names another interface, the k-th emu<k-1>. A link of the topology joins
// two nodes that share a network; the shorthands make no link between nodes
// that share none (expansion.h).
#pragma once

#include <set>
#include <string>
#include <vector>

#include "scenario/emulator_spec.h"
#include "scenario/node_set.h"
#include "scenario/table_reader.h"

namespace dissem::scenario {

struct NetworkSpec {
  std::string name;
  std::vector<int> nodes;  // node ids, ascending: the network's emulator node i is nodes[i - 1]
  std::string interface;   // the TAP's name in each of its nodes' namespaces
  EmulatorSpec emulator;   // its own [networks.NAME.emulator] only
};

// Empty without [networks]. Throws ScenarioError naming the key: a network
// with no node, a node on no network, an interface name used twice or not a
// Linux interface name.
std::vector<NetworkSpec> read_networks(const TableReader& top, const NodeSet& nodes,
                                       const std::set<std::string>& names);

// The node sets of `networks`, for the expansion (empty: one network of all).
std::vector<std::set<int>> network_members(const std::vector<NetworkSpec>& networks);

}  // namespace dissem::scenario
