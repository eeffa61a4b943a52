// The relay watchdog's bookkeeping on the send path (engine/relay_watch.h):
// which neighbours a copy we just sent should have made rebroadcast.
#include <algorithm>

#include "engine/node_impl.h"

namespace dissem::engine {

void NodeImpl::note_named_relays(const std::string& group, std::uint32_t hops, Micros now) {
  if (beacons.named_relays().empty() || !forwarding->names_relays()) return;
  // As the relay judges it (controllers/forwarding/subscriber_tree.cpp,
  // naming_by_transmitter): named towards a subscriber other than itself
  // that the hop limit still reaches after its rebroadcast.
  const std::uint32_t hop_limit = forwarding->interest_radius();
  if (hops >= hop_limit) return;
  const std::uint32_t reach = hop_limit - hops + 1;
  std::vector<NodeId> named;
  for (const auto& e : beacons.named_relays())
    if (e.group == group && e.subscriber != e.via && e.distance <= reach) named.push_back(e.via);
  std::sort(named.begin(), named.end());
  named.erase(std::unique(named.begin(), named.end()), named.end());
  for (const NodeId relay : named)
    if (relay_watch.on_named_copy(relay, now)) ++stats.relays_avoided;
}

}  // namespace dissem::engine
