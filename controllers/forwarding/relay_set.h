// Relay-set forwarding: the relay sets of NRL's Simplified Multicast
// Forwarding (RFC 6621) for when every node wants the data, where the
// subscriber trees cannot prune. Each node decides alone, from its 2-hop
// neighbourhood (NodeView::neighbours_of: the echoes in the beacons) and the
// neighbour counts beacons carry, whether it belongs to the network's
// Essential Connected Dominating Set (relay_selection.h); the relays
// rebroadcast every first-pass fragment they get for the first time, after
// the usual random delay. Nodes outside the set never rebroadcast. The set
// is the same for every publisher and group (not source-specific).
//
// A relay's rebroadcast still yields to another copy heard before its turn
// (ForwardDecision::yield_to_copies), as flooding's do: the nodes only this
// relay covers may then miss the fragment and fetch it by requests, but at
// 80 % links that costs fewer frames than keeping every rebroadcast (in the
// simulator, every node subscribed, against flooding: about 0.04 less of
// flooding's on random geometric graphs of 50, the same on the 5x5 grid;
// docs/results/sim-forwarding.md has today's figures). Repairs are not passed on: a relay
// requests what it misses (relays() is true for every group), and the nodes
// it covers fetch from it, hop by hop.
//
// The decision is recomputed only when the neighbourhood changed
// (NodeView::neighbourhood_version): O(d^2) for d neighbours of neighbours.
// Until the beacons have said enough (a neighbour's count or list not in
// yet) a node errs towards relaying.
//
// What a hostile neighbour can do: claim many neighbours (the highest
// priority) and an adjacency to everyone, so that nodes around it leave the
// relaying to it, then stay silent: its neighbours then fetch everything by
// requests. Relay-set forwarding trusts the beacons as E-CDS trusts NHDP.
#pragma once

#include <cstdint>
#include <optional>

#include "controllers/forwarding/forwarded_memory.h"
#include "controllers/forwarding/forwarding_controller.h"

namespace dissem::controllers {

struct RelaySetParams {
  std::uint32_t hop_limit = 8;
  Micros delay_max = 0;  // 0: four packet times
};

class RelaySetForwarding final : public ForwardingController {
 public:
  explicit RelaySetForwarding(RelaySetParams params) : params_(params) {}
  std::string_view name() const override { return "relay-set"; }
  ForwardDecision on_new_fragment(const ReceivedFragment& fragment, const NodeView& node, Micros now,
                                  Random& rng) override;
  // A relay carries every group.
  bool relays(const std::string& group, const NodeView& node) const override;
  bool needs_neighbour_counts() const override { return true; }

  // Whether this node is in the relay set now.
  bool is_relay(const NodeView& node) const;

 private:
  RelaySetParams params_;
  ForwardedMemory decided_;
  // The last decision and the neighbourhood it was taken from.
  mutable std::optional<std::uint64_t> decided_at_version_;
  mutable bool relay_ = false;
};

}  // namespace dissem::controllers
