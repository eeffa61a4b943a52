// Whether this node belongs to the relay set: the Essential Connected
// Dominating Set (E-CDS) of RFC 5614 and RFC 6621 (appendix), decided by
// each node alone from what its beacons' neighbours say: its established
// neighbours (N1), whom each of them hears (their echoes: N2 and the links
// among N1 and from N1 to N2), and how many neighbours each node has.
//
// Priority: more neighbours first (a node that covers many is the better
// relay), then a hash of the id (relay_tie_break) rather than the id
// itself, so that ties do not follow however ids happen to be numbered
// across the network. Every node computes the same priority for a node.
//
// The rule: a node with fewer than 2 neighbours never relays; one whose
// priority is above all its neighbours' relays; otherwise it relays unless
// every neighbour can be reached from Rmax, its neighbour of highest
// priority, through nodes of N1 and N2 of higher priority than its own
// (only the endpoints may be lower). The relays, taken together, connect
// the network and every node hears one (a connected dominating set) once
// the neighbourhood is known and consistent.
//
// Links between two of our neighbours count only when both lists name the
// other (symmetric, as NHDP's): a neighbour that claims to hear the others
// cannot on its word alone talk this node out of relaying.
//
// Partial knowledge errs towards relaying: a neighbour whose count is not
// known yet has the lowest priority (never an intermediate), a neighbour
// whose echoes have not come in yet cannot be reached, and a 2-hop node's
// count is the lowest any neighbour passes on. More relays cost frames,
// never coverage.
#pragma once

#include <cstdint>
#include <vector>

#include "controllers/node_view.h"

namespace dissem::controllers {

// The second key of the priority: the id mixed (splitmix64's finaliser).
std::uint64_t relay_tie_break(NodeId id);

struct RelayPriority {
  std::uint32_t neighbours = 0;  // 0: not known
  std::uint64_t tie = 0;
  auto operator<=>(const RelayPriority&) const = default;
};

// What one node sees: its neighbours and theirs (NodeView::neighbours,
// neighbours_of), read once.
struct Neighbourhood {
  NodeId self = 0;
  std::vector<NeighbourCount> one_hop;               // ordered by node
  std::vector<std::vector<NeighbourCount>> lists;    // lists[i]: whom one_hop[i] hears
};
Neighbourhood read_neighbourhood(const NodeView& node);

// E-CDS as above.
bool selects_itself_as_relay(const Neighbourhood& n);

}  // namespace dissem::controllers
