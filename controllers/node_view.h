// What a controller may ask the engine about the node while it decides. The
// engine implements it; controllers see nothing else of the engine's state,
// so they stay small and testable with a fake view.
#pragma once

#include <cstdint>
#include <span>
#include <string>

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
};

}  // namespace dissem::controllers
