#include "controllers/forwarding/relay_set.h"

#include "controllers/forwarding/probabilistic_flooding.h"
#include "controllers/forwarding/relay_selection.h"

namespace dissem::controllers {

bool RelaySetForwarding::is_relay(const NodeView& node) const {
  const std::uint64_t version = node.neighbourhood_version();
  if (decided_at_version_ != version) {
    relay_ = selects_itself_as_relay(read_neighbourhood(node));
    decided_at_version_ = version;
  }
  return relay_;
}

ForwardDecision RelaySetForwarding::on_new_fragment(const ReceivedFragment& f, const NodeView& node, Micros,
                                                    Random& rng) {
  if (f.repair || f.hops >= params_.hop_limit) return {};
  if (!decided_.first_time(f.meta.id, f.offset)) return {};
  if (!is_relay(node)) return {};
  return {true, forward_delay(params_.delay_max, node, rng), true};
}

bool RelaySetForwarding::relays(const std::string&, const NodeView& node) const { return is_relay(node); }

}  // namespace dissem::controllers
