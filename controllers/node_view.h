// What a controller may ask the engine about the node while it decides. The
// engine implements it; controllers see nothing else of the engine's state,
// so they stay small and testable with a fake view.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/types.h"

namespace dissem::controllers {

// A neighbour's advertised interest in a group (from its beacons): distance
// 0 is its own subscription, otherwise it learnt the interest from `via`.
// What neighbour `peer` advertised: it is `distance` hops from `subscriber`,
// learnt through `via`. A neighbour has one entry per subscriber it knows.
struct PeerInterest {
  NodeId peer = 0;
  std::uint32_t distance = 0;
  NodeId via = 0;
  NodeId subscriber = 0;
};

// A node one or two hops away with the number of neighbours it says it has
// in its beacons (0: not said yet). Relay-set forwarding's priority.
struct NeighbourCount {
  NodeId node = 0;
  std::uint32_t neighbours = 0;
  bool operator==(const NeighbourCount&) const = default;
};

class NodeView {
 public:
  virtual ~NodeView() = default;
  virtual NodeId self() const = 0;
  // Time one full-size fragment takes on this node's link: the unit random
  // delays are scaled by, so they follow the link rather than a constant.
  virtual Micros packet_time() const = 0;
  // Upper bound of the random delay before answering a request.
  virtual Micros serve_delay_max() const = 0;
  virtual bool subscribed(const std::string& group) const = 0;
  // Interest in `group` advertised by neighbours now heard, ordered by peer.
  // Empty unless the forwarding controller asks for interests to be
  // advertised (interest_radius() > 0).
  virtual std::span<const PeerInterest> interest(const std::string& group) const = 0;
  // The established neighbours (heard more than once), ordered by id, each
  // with the neighbour count it said in its latest beacon (0 unless the
  // forwarding controller needs_neighbour_counts()).
  virtual std::vector<NeighbourCount> neighbours() const = 0;
  // The nodes established neighbour `peer` hears (from the echoes in its
  // beacons, aged), ordered by id, each with the count `peer` passed on for
  // it; empty for any other node, and unless the forwarding controller
  // needs_neighbour_counts(). May include this node.
  virtual std::vector<NeighbourCount> neighbours_of(NodeId peer) const = 0;
  // Changes whenever neighbours() or neighbours_of() may have: a decision
  // taken from them stays valid while it does not.
  virtual std::uint64_t neighbourhood_version() const = 0;
};

}  // namespace dissem::controllers
