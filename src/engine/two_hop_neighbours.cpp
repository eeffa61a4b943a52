#include "engine/two_hop_neighbours.h"

#include <algorithm>

namespace dissem::engine {

void TwoHopNeighbours::on_beacon(NodeId peer, std::uint32_t seq, std::uint32_t neighbours,
                                 std::span<const Echoed> echoed) {
  auto it = peers_.find(peer);
  if (it == peers_.end()) {
    if (peers_.size() >= max_peers_) {
      ++refused_;
      return;
    }
    it = peers_.emplace(peer, PeerNeighbours{}).first;
    it->second.last_seq = seq;
    ++version_;
  }
  PeerNeighbours& p = it->second;
  if (seq < p.last_seq) {
    // The peer restarted: what it said before no longer holds.
    if (!p.heard.empty()) ++version_;
    p.heard.clear();
    p.most_per_beacon = 1;
  }
  p.last_seq = seq;
  if (p.announced != neighbours) {
    p.announced = neighbours;
    ++version_;
  }
  p.most_per_beacon = std::max(p.most_per_beacon, static_cast<std::uint32_t>(std::min<std::size_t>(echoed.size(), max_per_peer_)));
  for (const Echoed& e : echoed) take(p, seq, e);
  age(p, seq);
}

void TwoHopNeighbours::take(PeerNeighbours& p, std::uint32_t seq, const Echoed& e) {
  if (e.node == 0) return;
  auto found = p.heard.find(e.node);
  if (found == p.heard.end()) {
    if (p.heard.size() >= max_per_peer_) {
      ++refused_;
      return;
    }
    p.heard.emplace(e.node, Heard{seq, e.neighbours});
    ++version_;
    return;
  }
  found->second.seq = seq;
  if (found->second.neighbours != e.neighbours) {
    found->second.neighbours = e.neighbours;
    ++version_;
  }
}

// Drops what the peer has not echoed for kEchoRounds rounds of its echoes.
void TwoHopNeighbours::age(PeerNeighbours& p, std::uint32_t seq) {
  const auto per_round = static_cast<std::uint64_t>(p.most_per_beacon);
  const std::uint64_t round = (p.heard.size() + per_round - 1) / per_round;
  const std::uint64_t keep = kEchoRounds * std::max<std::uint64_t>(round, 1);
  const auto erased = std::erase_if(p.heard, [&](const auto& e) { return seq - e.second.seq > keep; });
  if (erased > 0) ++version_;
}

void TwoHopNeighbours::forget(NodeId peer) {
  if (peers_.erase(peer) > 0) ++version_;
}

std::uint32_t TwoHopNeighbours::announced(NodeId peer) const {
  const auto it = peers_.find(peer);
  return it == peers_.end() ? 0 : it->second.announced;
}

std::vector<TwoHopNeighbours::Echoed> TwoHopNeighbours::neighbours_of(NodeId peer) const {
  std::vector<Echoed> out;
  const auto it = peers_.find(peer);
  if (it == peers_.end()) return out;
  out.reserve(it->second.heard.size());
  for (const auto& [node, h] : it->second.heard) out.push_back({node, h.neighbours});
  return out;
}

}  // namespace dissem::engine
