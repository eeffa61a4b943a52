// Who each established neighbour hears: the 2-hop neighbourhood, from the
// echoes in its beacons (beacons.h: a beacon echoes a few of the peers its
// sender hears, at most kEchoesPerBeacon, taking turns), with the number of
// neighbours each node says it has (Beacon.neighbours, passed on in
// Echo.neighbours). Relay-set forwarding (RFC 6621's E-CDS) decides from it
// whether this node relays (controllers/forwarding/relay_set.h).
//
// Aging: a peer echoes each of its neighbours once per round of its echoes
// (its neighbours over the most echoes one of its beacons carried), so an
// entry that has gone unechoed for kEchoRounds such rounds of the peer's
// beacons (counted by the beacons' own numbers, so beacons we missed count)
// is dropped: the peer no longer hears that node. A peer whose numbers go
// back has restarted: what it said before is dropped. A peer gone silent is
// forgotten whole (forget(), when the peer table expires it).
//
// Hostile input: only established neighbours are fed in (the caller's
// check: a one-off beacon from an invented id adds nothing), at most
// max_peers of them, and at most max_per_peer entries each; entries beyond
// are not added. An invented adjacency can only make this node relay more,
// or, through a false neighbour count, less: see relay_set.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <vector>

#include "controllers/node_view.h"
#include "core/types.h"

namespace dissem::engine {

// Entries per neighbour at most (and never more than engine.max_peers): a
// node heard by more is rare, and a truncated list only makes us relay more.
constexpr std::size_t kMaxTwoHopPerPeer = 256;

class TwoHopNeighbours {
 public:
  // Rounds of a peer's echoes an entry may go unechoed before it is dropped.
  static constexpr std::uint32_t kEchoRounds = 5;

  // A node a beacon echoes, with the neighbour count the echoing peer passes
  // on for it (0: not said): what controllers see (NodeView::neighbours_of).
  using Echoed = controllers::NeighbourCount;

  TwoHopNeighbours(std::size_t max_peers, std::size_t max_per_peer)
      : max_peers_(max_peers), max_per_peer_(max_per_peer) {}

  // A beacon of established neighbour `peer`, numbered `seq`, saying it has
  // `neighbours` neighbours (0: not said) and echoing `echoed`.
  void on_beacon(NodeId peer, std::uint32_t seq, std::uint32_t neighbours, std::span<const Echoed> echoed);
  // `peer` went silent.
  void forget(NodeId peer);

  // The neighbour count `peer` said in its latest beacon (0: not said, or unknown peer).
  std::uint32_t announced(NodeId peer) const;
  // The nodes `peer` hears, ordered by id, each with the neighbour count
  // `peer` passed on for it. Empty for a peer not tracked.
  std::vector<Echoed> neighbours_of(NodeId peer) const;
  // Changes whenever anything above changes: a decision taken from this
  // table stays valid while it does not.
  std::uint64_t version() const { return version_; }
  std::size_t peers() const { return peers_.size(); }
  // Entries not added because a bound was reached.
  std::uint64_t refused() const { return refused_; }

 private:
  struct Heard {
    std::uint32_t seq = 0;         // the peer's beacon that last echoed it
    std::uint32_t neighbours = 0;  // the count the peer passed on for it
  };
  struct PeerNeighbours {
    std::uint32_t announced = 0;
    std::uint32_t last_seq = 0;
    std::uint32_t most_per_beacon = 1;  // the most echoes one of its beacons carried
    std::map<NodeId, Heard> heard;
  };
  void age(PeerNeighbours& p, std::uint32_t seq);
  void take(PeerNeighbours& p, std::uint32_t seq, const Echoed& e);

  std::size_t max_peers_;
  std::size_t max_per_peer_;
  std::map<NodeId, PeerNeighbours> peers_;  // ordered: deterministic iteration
  std::uint64_t version_ = 0;
  std::uint64_t refused_ = 0;
};

}  // namespace dissem::engine
