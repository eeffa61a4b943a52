// This node's share of a channel that others may be using. Every
// transmission a node hears took air time; on one shared channel (most real
// radio nets) what others send is capacity this node does not have. A node
// therefore paces itself at the link capacity less the occupancy it observes
// (what it hears from others, scaled up by the loss it measures, since a lost
// frame took air time too), never below a floor that keeps its control
// traffic and some repairs flowing. The publisher keeps priority, as in the
// paper's set-up: while it has a first pass to send, only others' first
// passes count against it (NodeImpl::update_pacing), so receivers
// repairing each other never starve the source; everyone else yields to
// everything it hears. With a radio per node (MANE's model) the same rule
// costs only some parallelism of the receivers' repairs; the node cannot
// tell the two models apart, so it assumes the one whose mistakes cost less.
#pragma once

#include <algorithm>
#include <cstdint>

namespace dissem::engine {

class ChannelShare {
 public:
  ChannelShare(std::uint64_t capacity_bps, double floor_fraction)
      : capacity_(static_cast<double>(capacity_bps)), floor_(std::clamp(floor_fraction, 0.0, 1.0)) {}

  // Transmit rate given `heard_bps` (IP bytes from others, per second) and
  // the fraction `loss` of others' frames this node misses.
  std::uint64_t rate_bps(double heard_bps, double loss) const {
    const double occupied = heard_bps / (1.0 - std::clamp(loss, 0.0, 0.5));
    return static_cast<std::uint64_t>(std::max(floor_ * capacity_, capacity_ - occupied));
  }

 private:
  double capacity_;
  double floor_;
};

}  // namespace dissem::engine
