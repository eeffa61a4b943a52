#include "controllers/forwarding/subscription_aware.h"

#include "controllers/forwarding/interest_direction.h"
#include "controllers/forwarding/probabilistic_flooding.h"

namespace dissem::controllers {

ForwardDecision SubscriptionAwareForwarding::on_new_fragment(const ReceivedFragment& f, const NodeView& node, Micros,
                                                             Random& rng) {
  if (f.hops >= params_.hop_limit) return {};
  if (f.repair && !on_path_.contains(f.meta.id.group)) return {};
  if (!decided_.first_time(f.meta.id, f.offset)) return {};
  if (!brings_subscriber_closer(f, node, params_.hop_limit)) return {};
  if (!f.repair) on_path_.insert(f.meta.id.group);
  return {true, forward_delay(params_.delay_max, node, rng)};
}

bool SubscriptionAwareForwarding::relays(const std::string& group, const NodeView& node) const {
  // Still someone beyond: interest that does not come back through us.
  return on_path_.contains(group) && someone_beyond(group, node);
}

}  // namespace dissem::controllers
