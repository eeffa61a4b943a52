#include "engine/traffic_memory.h"

namespace dissem::engine {

std::uint64_t TrafficMemory::fingerprint(const MessageId& message, std::uint32_t offset) {
  // FNV-1a over the group, then the numbers folded in with a strong mixer.
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : message.group) h = (h ^ c) * 0x100000001b3ULL;
  auto mix = [](std::uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    return x ^ (x >> 33);
  };
  h = mix(h ^ message.publisher);
  h = mix(h ^ message.seq);
  return mix(h ^ offset);
}

void TrafficMemory::record(const MessageId& message, std::uint32_t offset, Micros now) {
  prune(now);
  const std::uint64_t fp = fingerprint(message, offset);
  last_seen_[fp] = now;
  log_.emplace_back(now, fp);
}

bool TrafficMemory::seen_recently(const FragmentKey& key, Micros now) {
  const auto t = last_seen(key, now);
  return t && *t >= now - window_;
}

std::optional<Micros> TrafficMemory::last_seen(const FragmentKey& key, Micros now) {
  prune(now);
  auto it = last_seen_.find(fingerprint(key.message, key.offset));
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
