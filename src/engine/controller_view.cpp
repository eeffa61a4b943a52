// What controllers see of the node: identity, link timing, subscriptions,
// neighbours' interests and the 2-hop neighbourhood. Read-only, so a decision cannot change engine state
// behind its back.
#include "engine/node_impl.h"

namespace dissem::engine {

NodeId ControllerView::self() const { return node_.config.node_id; }
Micros ControllerView::packet_time() const { return node_.timing.packet_time; }
Micros ControllerView::serve_delay_max() const { return node_.timing.serve_delay_max; }
bool ControllerView::subscribed(const std::string& group) const { return node_.subscribers.subscriptions().any(group); }

std::span<const controllers::PeerInterest> ControllerView::interest(const std::string& group) const {
  return node_.interests.of(group);
}

std::vector<controllers::NeighbourCount> ControllerView::neighbours() const {
  std::vector<controllers::NeighbourCount> out;
  for (const auto& [id, peer] : node_.peers.all())
    if (peer.established()) out.push_back({id, node_.two_hop.announced(id)});
  return out;
}

std::vector<controllers::NeighbourCount> ControllerView::neighbours_of(NodeId peer) const {
  if (!node_.peers.established(peer)) return {};
  return node_.two_hop.neighbours_of(peer);
}

// The table follows the established peers (node_receive.cpp feeds it their
// beacons and drops a peer that restarted, node.cpp one gone silent).
std::uint64_t ControllerView::neighbourhood_version() const { return node_.two_hop.version(); }

}  // namespace dissem::engine
