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
// tell the two models apart until it hears more air time at once than one
// channel carries (radio_model.h). Until then, while a publisher's first
// pass fills at least half the channel, the floor is the crowd's: the nodes
// it hears, itself included, share four floors' worth between them (twenty
// repairers at 5 % each would take the whole channel from the publisher).
// With that proof, or with no such first pass on the air (receivers
// repairing each other after a slow publisher, as in the paper's tactical
// test), every node has its own floor.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace dissem::engine {

// Nodes whose floors the crowd shares: up to this many, each has its own.
constexpr double kCrowdFloors = 4.0;

class ChannelShare {
 public:
  ChannelShare(std::uint64_t capacity_bps, double floor_fraction)
      : capacity_(static_cast<double>(capacity_bps)), floor_(std::clamp(floor_fraction, 0.0, 1.0)) {}

  // Transmit rate given `heard_bps` (IP bytes from others, per second),
  // the fraction `loss` of others' frames this node misses, and the
  // `nodes` that may share the channel (1 with separate radios).
  std::uint64_t rate_bps(double heard_bps, double loss, std::size_t nodes = 1) const {
    const double occupied = occupancy(heard_bps, loss);
    const double crowd = std::min(1.0, kCrowdFloors / static_cast<double>(std::max<std::size_t>(nodes, 1)));
    return static_cast<std::uint64_t>(std::max(floor_ * capacity_ * crowd, capacity_ - occupied));
  }

  // Whether what is heard at `heard_bps` (with `loss` missed) fills at least
  // half the channel: a publisher's first pass that needs most of it.
  bool half_filled(double heard_bps, double loss) const { return occupancy(heard_bps, loss) >= capacity_ / 2; }

 private:
  static double occupancy(double heard_bps, double loss) { return heard_bps / (1.0 - std::clamp(loss, 0.0, 0.5)); }

  double capacity_;
  double floor_;
};

}  // namespace dissem::engine
