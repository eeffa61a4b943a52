// Decision point: should this node rebroadcast a fragment it just received,
// and after what delay? The engine asks once per newly held fragment (never
// for duplicates). A rebroadcast waits in the repair queue, so the pacer and
// the priority split bound it, and it is dropped if the Network Traffic
// Memory hears the fragment again before our turn (someone nearer did it).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "controllers/node_view.h"
#include "core/random.h"
#include "core/types.h"

namespace dissem::controllers {

struct ReceivedFragment {
  const MessageMeta& meta;
  std::uint32_t offset = 0;
  std::uint32_t length = 0;
  std::uint32_t hops = 0;  // rebroadcasts so far
  bool locally_subscribed = false;
  // Who put this copy on the air: the publisher for first-pass data, the
  // forwarder for a rebroadcast, 0 for a repair (any cache may have sent it).
  NodeId transmitter = 0;
  bool repair = false;
};

struct ForwardDecision {
  bool forward = false;
  Micros delay = 0;  // wait this long first (lets the NTM suppress duplicates)
  // Drop the rebroadcast if another copy of the fragment is heard before our
  // turn (someone nearer did it). A relay its transmitter chose keeps it: a
  // sibling's copy does not reach the relay's own next hop.
  bool yield_to_copies = true;
};

class ForwardingController {
 public:
  virtual ~ForwardingController() = default;
  virtual std::string_view name() const = 0;
  virtual ForwardDecision on_new_fragment(const ReceivedFragment& fragment, const NodeView& node, Micros now,
                                          Random& rng) = 0;
  // Whether this node relays `group` for others. A relay also requests what
  // it misses of the group (a hole in a relay is a hole for everyone behind
  // it) and wants the group in anti-entropy exchanges.
  virtual bool relays(const std::string& /*group*/, const NodeView& /*node*/) const { return false; }
  // Hops over which interest in groups is advertised in beacons; 0 = none,
  // and beacons stay as they are without a forwarding controller.
  virtual std::uint32_t interest_radius() const { return 0; }
  // Whether only the next hops a transmitter names in its beacons relay its
  // copies (subscriber-tree): the engine then watches that they do
  // (engine/relay_watch.h) and stops naming a silent one.
  virtual bool names_relays() const { return false; }
  // Whether this controller decides from the 2-hop neighbourhood
  // (NodeView::neighbours_of) with the neighbour counts as priorities
  // (relay-set): the engine then keeps whom each neighbour hears, and
  // beacons say how many neighbours the node has and pass on each echoed
  // peer's count. Without it neither is done and beacons stay as they are.
  virtual bool needs_neighbour_counts() const { return false; }
};

// Default for fully connected networks: every node hears the publisher.
class NoForwarding final : public ForwardingController {
 public:
  std::string_view name() const override { return "none"; }
  ForwardDecision on_new_fragment(const ReceivedFragment&, const NodeView&, Micros, Random&) override { return {}; }
};

}  // namespace dissem::controllers
