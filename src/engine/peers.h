// Peers heard from, and round-trip estimates from beacon echoes.
// No membership protocol: a peer exists while we keep hearing it.
#pragma once

#include <map>
#include <vector>

#include "engine/types.h"

namespace dissem::engine {

struct Peer {
  Micros last_heard = 0;
  Micros srtt = 0;                  // smoothed RTT; 0 until the first sample
  std::uint64_t beacon_sent_us = 0; // the peer's own timestamp on its last beacon
  Micros beacon_heard_at = 0;       // when we heard that beacon (to compute hold time)
};

class PeerTable {
 public:
  // Returns true when `id` is new (or was silent and came back).
  bool heard(NodeId id, Micros now);
  void on_beacon(NodeId id, std::uint64_t peer_sent_us, Micros now);
  void on_rtt_sample(NodeId id, Micros sample);
  // Removes peers not heard within `silent_after`; returns them.
  std::vector<NodeId> expire(Micros now, Micros silent_after);
  // The largest smoothed RTT among peers (the slowest one sets our timers),
  // or `fallback` before any sample.
  Micros rtt_estimate(Micros fallback) const;
  const std::map<NodeId, Peer>& all() const { return peers_; }

 private:
  std::map<NodeId, Peer> peers_;  // ordered: deterministic iteration
};

}  // namespace dissem::engine
