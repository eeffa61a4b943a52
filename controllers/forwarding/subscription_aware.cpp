#include "controllers/forwarding/subscription_aware.h"

#include <limits>

#include "controllers/forwarding/probabilistic_flooding.h"

namespace dissem::controllers {

bool SubscriptionAwareForwarding::someone_beyond(const ReceivedFragment& f, const NodeView& node) const {
  const auto interests = node.interest(f.meta.id.group);
  // How far the transmitter is from a subscriber; unknown (a repair, or a
  // transmitter that advertises nothing about it) counts as infinitely far.
  const auto transmitter_distance = [&](NodeId subscriber) {
    for (const auto& i : interests)
      if (f.transmitter != 0 && i.peer == f.transmitter && i.subscriber == subscriber) return i.distance;
    return std::numeric_limits<std::uint32_t>::max();
  };
  // After ours, reaching a subscriber `distance` hops beyond a neighbour takes
  // `distance` more rebroadcasts: worth it only within the hop limit. Judged
  // per subscriber: we forward when we bring some subscriber closer than the
  // transmitter did, however near another subscriber may be.
  const std::uint32_t rebroadcasts_left = params_.hop_limit - f.hops - 1;
  for (const auto& i : interests) {
    if (i.peer == f.transmitter || i.via == node.self() || i.subscriber == node.self()) continue;
    if (i.distance > rebroadcasts_left) continue;
    if (f.repair || i.distance == 0 || i.distance < transmitter_distance(i.subscriber)) return true;
  }
  return false;
}

ForwardDecision SubscriptionAwareForwarding::on_new_fragment(const ReceivedFragment& f, const NodeView& node, Micros,
                                                             Random& rng) {
  if (f.hops >= params_.hop_limit) return {};
  if (f.repair && !on_path_.contains(f.meta.id.group)) return {};
  if (!decided_.first_time(f.meta.id, f.offset)) return {};
  if (!someone_beyond(f, node)) return {};
  if (!f.repair) on_path_.insert(f.meta.id.group);
  return {true, forward_delay(params_.delay_max, node, rng)};
}

bool SubscriptionAwareForwarding::relays(const std::string& group, const NodeView& node) const {
  if (!on_path_.contains(group)) return false;
  // Still someone beyond: interest that does not come back through us.
  for (const auto& i : node.interest(group))
    if (i.via != node.self() && i.subscriber != node.self()) return true;
  return false;
}

}  // namespace dissem::controllers
