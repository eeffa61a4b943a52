#include "engine/traffic_memory.h"

namespace dissem::engine {

void TrafficMemory::record(const FragmentKey& key, Micros now) {
  prune(now);
  last_seen_[key] = now;
  log_.emplace_back(now, key);
}

bool TrafficMemory::seen_recently(const FragmentKey& key, Micros now) {
  const auto t = last_seen(key, now);
  return t && *t >= now - window_;
}

std::optional<Micros> TrafficMemory::last_seen(const FragmentKey& key, Micros now) {
  prune(now);
  auto it = last_seen_.find(key);
  if (it == last_seen_.end()) return std::nullopt;
  return it->second;
}

void TrafficMemory::prune(Micros now) {
  const Micros horizon = now - window_;
  while (!log_.empty() && log_.front().first < horizon) {
    auto it = last_seen_.find(log_.front().second);
    // Only erase if this log entry is the newest sighting of the fragment.
    if (it != last_seen_.end() && it->second == log_.front().first) last_seen_.erase(it);
    log_.pop_front();
  }
}

}  // namespace dissem::engine
