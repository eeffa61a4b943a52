// Subscription-aware forwarding: nodes advertise in their beacons the groups
// they subscribe to, and, distance-vector style, the groups some node within
// the hop limit subscribes to (see proto/wire.proto, Interest). A node
// rebroadcasts a fragment only when a neighbour other than the one it came
// from wants the group through a path that does not lead back through this
// node, and that neighbour is a subscriber itself or nearer to one than the
// transmitter was. Fragments of groups nobody beyond this node wants stay put.
//
// A repair does not say who sent it, so it cannot be judged that way: it is
// rebroadcast only by nodes already on the group's path (they rebroadcast
// first-pass data of it before), and only those relay the group, that is
// request what they miss of it. Nodes that merely overhear stay quiet.
#pragma once

#include <set>
#include <string>

#include "controllers/forwarding/forwarded_memory.h"
#include "controllers/forwarding/forwarding_controller.h"
#include "controllers/forwarding/interest_params.h"

namespace dissem::controllers {

class SubscriptionAwareForwarding final : public ForwardingController {
 public:
  explicit SubscriptionAwareForwarding(InterestForwardingParams params) : params_(params) {}
  std::string_view name() const override { return "subscription-aware"; }
  ForwardDecision on_new_fragment(const ReceivedFragment& fragment, const NodeView& node, Micros now,
                                  Random& rng) override;
  bool relays(const std::string& group, const NodeView& node) const override;
  std::uint32_t interest_radius() const override { return params_.hop_limit; }

 private:
  InterestForwardingParams params_;
  ForwardedMemory decided_;
  std::set<std::string> on_path_;  // groups this node has rebroadcast first-pass data of
};

}  // namespace dissem::controllers
