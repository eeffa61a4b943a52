#include "engine/interests.h"

#include <algorithm>

namespace dissem::engine {

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
    const controllers::PeerInterest pi{peer, e.distance, e.via};
    const auto at = std::lower_bound(v.begin(), v.end(), peer, [](const auto& i, NodeId p) { return i.peer < p; });
    if (at != v.end() && at->peer == peer) {
      at->distance = std::min(at->distance, e.distance);  // a repeated group keeps its best entry
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
                                                         std::uint32_t radius) const {
  std::vector<AdvertisedInterest> out;
  auto g = by_group_.begin();
  auto o = own.begin();
  // Merge the two ordered sources so the result is ordered by group.
  while (g != by_group_.end() || o != own.end()) {
    const bool take_own = o != own.end() && (g == by_group_.end() || *o <= g->first);
    if (take_own) {
      out.push_back({*o, 0, 0});
      if (g != by_group_.end() && g->first == *o) ++g;
      ++o;
      continue;
    }
    const controllers::PeerInterest* best = nullptr;
    for (const auto& i : g->second) {
      if (i.via == self) continue;  // split horizon: our own advertisement coming back
      if (best == nullptr || i.distance < best->distance) best = &i;
    }
    if (best != nullptr && best->distance + 1 <= radius) out.push_back({g->first, best->distance + 1, best->peer});
    ++g;
  }
  return out;
}

std::set<std::string> InterestTable::groups() const {
  std::set<std::string> out;
  for (const auto& [g, v] : by_group_) out.insert(g);
  return out;
}

}  // namespace dissem::engine
