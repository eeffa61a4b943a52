#include "engine/interests.h"

#include <algorithm>

namespace dissem::engine {

namespace {

// Per subscriber, the neighbour with the smallest distance (split horizon:
// never one that learnt it through us). Among equally near ones, the one
// that is a nearest neighbour towards the most of the group's subscribers,
// then the lowest id: next hops are shared where the distances allow it, so
// the paths to several subscribers merge into few relays (subscriber-tree
// forwarding relays only along them). Neighbours in `avoid` (relays found
// silent: engine/relay_watch.h) are passed over for any other route to the
// same subscriber, even a longer one. O(entries log entries).
void append_best_routes(NodeId self, const std::string& group, const std::vector<controllers::PeerInterest>& heard,
                        std::uint32_t radius, const std::set<NodeId>& avoid, std::vector<AdvertisedInterest>& out) {
  const auto usable = [&](const controllers::PeerInterest& i) { return i.via != self && i.subscriber != self; };
  // Subscribers some neighbour not avoided leads to: only those neighbours count for them.
  std::set<NodeId> clean;
  if (!avoid.empty())
    for (const auto& i : heard)
      if (usable(i) && !avoid.contains(i.peer)) clean.insert(i.subscriber);
  const auto candidate = [&](const controllers::PeerInterest& i) {
    return usable(i) && (!avoid.contains(i.peer) || !clean.contains(i.subscriber));
  };
  std::map<NodeId, std::uint32_t> nearest;  // subscriber -> smallest distance
  for (const auto& i : heard) {
    if (!candidate(i)) continue;
    auto [it, fresh] = nearest.try_emplace(i.subscriber, i.distance);
    if (!fresh) it->second = std::min(it->second, i.distance);
  }
  std::map<NodeId, std::uint32_t> shared;  // peer -> subscribers it is a nearest neighbour towards
  for (const auto& i : heard)
    if (candidate(i) && nearest[i.subscriber] == i.distance) ++shared[i.peer];
  std::map<NodeId, const controllers::PeerInterest*> best;
  // Entries are ordered by peer: a strict improvement keeps the lowest id on ties.
  for (const auto& i : heard) {
    if (!candidate(i) || nearest[i.subscriber] != i.distance) continue;
    auto& b = best[i.subscriber];
    if (b == nullptr || shared[i.peer] > shared[b->peer]) b = &i;
  }
  for (const auto& [subscriber, b] : best)
    if (b->distance + 1 <= radius) out.push_back({group, b->distance + 1, b->peer, subscriber});
}

}  // namespace

void InterestTable::forget(NodeId peer) {
  for (auto it = by_group_.begin(); it != by_group_.end();) {
    auto& v = it->second;
    v.erase(std::remove_if(v.begin(), v.end(), [peer](const auto& i) { return i.peer == peer; }), v.end());
    it = v.empty() ? by_group_.erase(it) : std::next(it);
  }
}

void InterestTable::update(NodeId peer, const std::vector<AdvertisedInterest>& entries) {
  forget(peer);
  for (const auto& e : entries) {
    auto& v = by_group_[e.group];
    const controllers::PeerInterest pi{peer, e.distance, e.via, e.subscriber};
    const auto key = [](const controllers::PeerInterest& i) { return std::pair(i.peer, i.subscriber); };
    const auto at = std::lower_bound(v.begin(), v.end(), pi, [&](const auto& a, const auto& b) { return key(a) < key(b); });
    if (at != v.end() && key(*at) == key(pi)) {
      if (e.distance < at->distance) *at = pi;  // a repeated vector keeps its best entry
    } else {
      v.insert(at, pi);
    }
  }
}

std::span<const controllers::PeerInterest> InterestTable::of(const std::string& group) const {
  const auto it = by_group_.find(group);
  if (it == by_group_.end()) return {};
  return it->second;
}

std::vector<AdvertisedInterest> InterestTable::advertise(NodeId self, const std::set<std::string>& own,
                                                         std::uint32_t radius, const std::set<NodeId>& avoid) const {
  std::vector<AdvertisedInterest> out;
  auto g = by_group_.begin();
  auto o = own.begin();
  // Merge the two ordered sources so the result is ordered by group.
  while (g != by_group_.end() || o != own.end()) {
    const bool take_own = o != own.end() && (g == by_group_.end() || *o <= g->first);
    const bool take_heard = g != by_group_.end() && (o == own.end() || g->first <= *o);
    const std::string& group = take_own ? *o : g->first;
    const std::size_t first = out.size();
    if (take_own) out.push_back({group, 0, 0, self});
    if (take_heard) append_best_routes(self, group, g->second, radius, avoid, out);
    // The group's entries, ours among them, ordered by subscriber.
    std::sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(),
              [](const auto& a, const auto& b) { return a.subscriber < b.subscriber; });
    if (take_own) ++o;
    if (take_heard) ++g;
  }
  return out;
}

std::set<std::string> InterestTable::groups_of_others(NodeId self) const {
  std::set<std::string> out;
  for (const auto& [g, v] : by_group_)
    for (const auto& p : v)
      if (p.subscriber != self && p.via != self) {
        out.insert(g);
        break;
      }
  return out;
}

std::set<std::string> InterestTable::groups() const {
  std::set<std::string> out;
  for (const auto& [g, v] : by_group_) out.insert(g);
  return out;
}

}  // namespace dissem::engine
