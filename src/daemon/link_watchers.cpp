#include "daemon/link_watchers.h"

namespace dissem::daemon {

void LinkWatchers::watch(ipc::ClientId client, const engine::LinkThresholds& thresholds) {
  engine::check_link_thresholds(thresholds);
  watchers_.insert_or_assign(client, engine::LinkWatch(thresholds));
  next_evaluation_ = 0;  // the new watch learns the neighbours at once
}

std::vector<std::pair<ipc::ClientId, engine::LinkEvent>> LinkWatchers::evaluate(
    const std::vector<engine::LinkSample>& links, Micros now) {
  next_evaluation_ = now + kEvaluateEvery;
  std::vector<std::pair<ipc::ClientId, engine::LinkEvent>> out;
  std::vector<engine::LinkEvent> events;
  for (auto& [client, watch] : watchers_) {
    events.clear();
    watch.evaluate(links, events);
    for (auto& e : events) out.emplace_back(client, std::move(e));
  }
  return out;
}

}  // namespace dissem::daemon
