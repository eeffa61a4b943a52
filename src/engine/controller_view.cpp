// What controllers see of the node: identity, link timing, subscriptions and
// neighbours' interests. Read-only, so a decision cannot change engine state
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

}  // namespace dissem::engine
