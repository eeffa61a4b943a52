#include "daemon/link_bridge.h"

namespace dissem::daemon {

std::set<std::string> LinkBridge::wanted_on(std::size_t j) const {
  std::set<std::string> groups = neighbours_[j];
  if (j == 0) groups.insert(local_.begin(), local_.end());
  return groups;
}

std::set<std::string> LinkBridge::carried_from(std::size_t link) const {
  std::set<std::string> out;
  for (const auto& [key, id] : subscriptions_)
    if (key.first == link) out.insert(key.second);
  return out;
}

std::vector<LinkBridge::Change> LinkBridge::refresh(Micros now) {
  std::vector<Change> changes;
  if (links_.size() < 2) return changes;
  for (std::size_t j = 0; j < links_.size(); ++j) neighbours_[j] = links_[j]->groups_wanted_by_neighbours();
  std::vector<std::set<std::string>> wanted;
  for (std::size_t j = 0; j < links_.size(); ++j) wanted.push_back(wanted_on(j));
  for (std::size_t i = 0; i < links_.size(); ++i) {
    std::set<std::string> needed;  // what link i must hear for the others
    for (std::size_t j = 0; j < links_.size(); ++j)
      if (j != i) needed.insert(wanted[j].begin(), wanted[j].end());
    for (const auto& group : needed) {
      if (subscriptions_.contains({i, group})) continue;
      const auto id = links_[i]->subscribe(group, engine::SubscriptionOptions{}, now);
      subscriptions_[{i, group}] = id;
      groups_of_[{i, id}] = group;
      changes.push_back({i, group, true});
    }
    for (auto it = subscriptions_.begin(); it != subscriptions_.end();) {
      if (it->first.first != i || needed.contains(it->first.second)) {
        ++it;
        continue;
      }
      links_[i]->unsubscribe(it->second, now);
      groups_of_.erase({i, it->second});
      changes.push_back({i, it->first.second, false});
      it = subscriptions_.erase(it);
    }
  }
  return changes;
}

bool LinkBridge::on_delivery(std::size_t link, const engine::Delivery& delivery, Micros now) {
  if (!groups_of_.contains({link, delivery.subscription})) return false;
  const MessageId& id = delivery.meta.id;
  const auto held = links_[link]->held_whole(id, now);  // as stored: sealed groups stay sealed
  if (!held) return true;
  for (std::size_t j = 0; j < links_.size(); ++j) {
    if (j == link) continue;
    const bool neighbours = neighbours_[j].contains(id.group);
    const bool here = j == 0 && local_.contains(id.group);
    if (!neighbours && !here) continue;
    switch (links_[j]->carry(held->first, held->second, neighbours, now)) {
      case engine::CarryOutcome::Carried: ++counters_.carried; break;
      case engine::CarryOutcome::Held: ++counters_.held; break;
      case engine::CarryOutcome::TooLate: ++counters_.too_late; break;
      case engine::CarryOutcome::Refused: break;
    }
  }
  return true;
}

}  // namespace dissem::daemon
