#include "controllers/forwarding/interest_direction.h"

#include <limits>

namespace dissem::controllers {

bool brings_subscriber_closer(const ReceivedFragment& f, const NodeView& node, std::uint32_t hop_limit) {
  if (f.hops >= hop_limit) return false;
  const auto interests = node.interest(f.meta.id.group);
  const auto transmitter_distance = [&](NodeId subscriber) {
    for (const auto& i : interests)
      if (f.transmitter != 0 && i.peer == f.transmitter && i.subscriber == subscriber) return i.distance;
    return std::numeric_limits<std::uint32_t>::max();
  };
  // After ours, reaching a subscriber `distance` hops beyond a neighbour takes
  // `distance` more rebroadcasts: worth it only within the hop limit. Judged
  // per subscriber: we forward when we bring some subscriber closer than the
  // transmitter did, however near another subscriber may be.
  const std::uint32_t rebroadcasts_left = hop_limit - f.hops - 1;
  for (const auto& i : interests) {
    if (i.peer == f.transmitter || i.via == node.self() || i.subscriber == node.self()) continue;
    if (i.distance > rebroadcasts_left) continue;
    if (f.repair || i.distance == 0 || i.distance < transmitter_distance(i.subscriber)) return true;
  }
  return false;
}

bool someone_beyond(const std::string& group, const NodeView& node) {
  for (const auto& i : node.interest(group))
    if (i.via != node.self() && i.subscriber != node.self()) return true;
  return false;
}

}  // namespace dissem::controllers
