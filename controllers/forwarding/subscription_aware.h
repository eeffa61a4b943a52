// Subscription-aware forwarding: nodes advertise in their beacons the groups
// they subscribe to, and, distance-vector style, the groups some node within
// the hop limit subscribes to (see proto/wire.proto, Interest). A node
// rebroadcasts a fragment only when a neighbour other than the one it came
// from wants the group through a path that does not lead back through this
// node, and that neighbour is a subscriber itself or nearer to one than the
// transmitter was. Fragments of groups nobody beyond this node wants stay put.
#pragma once

#include "controllers/forwarding/forwarded_memory.h"
#include "controllers/forwarding/forwarding_controller.h"

namespace dissem::controllers {

struct SubscriptionAwareParams {
  std::uint32_t hop_limit = 8;
  Micros delay_max = 0;  // 0: four packet times
};

class SubscriptionAwareForwarding final : public ForwardingController {
 public:
  explicit SubscriptionAwareForwarding(SubscriptionAwareParams params) : params_(params) {}
  std::string_view name() const override { return "subscription-aware"; }
  ForwardDecision on_new_fragment(const ReceivedFragment& fragment, const NodeView& node, Micros now,
                                  Random& rng) override;
  bool relays(const std::string& group, const NodeView& node) const override;
  std::uint32_t interest_radius() const override { return params_.hop_limit; }

 private:
  SubscriptionAwareParams params_;
  ForwardedMemory decided_;
};

}  // namespace dissem::controllers
