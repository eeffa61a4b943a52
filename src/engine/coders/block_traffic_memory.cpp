#include "engine/coders/block_traffic_memory.h"

#include <algorithm>

#include "engine/network_traffic_memory.h"

namespace dissem::engine {

std::uint64_t BlockTrafficMemory::key(const MessageId& message, std::uint32_t block) {
  // Offsets of fragments and block numbers never meet: one fingerprint space
  // with the top bit marking blocks.
  return NetworkTrafficMemory::fingerprint(message, block | 0x80000000u);
}

void BlockTrafficMemory::prune(Micros now) {
  while (!log_.empty() && log_.front().first < now - window_) {
    auto it = heard_.find(log_.front().second);
    if (it != heard_.end()) {
      it->second.pop_front();
      if (it->second.empty()) heard_.erase(it);
    }
    log_.pop_front();
  }
}

void BlockTrafficMemory::record(const MessageId& message, std::uint32_t block, Micros now) {
  prune(now);
  const std::uint64_t k = key(message, block);
  auto& times = heard_[k];
  // Time never goes back in the engine; keep the order if it ever did.
  if (!times.empty() && times.back() > now) now = times.back();
  times.push_back(now);
  log_.emplace_back(now, k);
}

std::uint32_t BlockTrafficMemory::count_since(const MessageId& message, std::uint32_t block, Micros since,
                                              Micros now) {
  prune(now);
  auto it = heard_.find(key(message, block));
  if (it == heard_.end()) return 0;
  const auto& times = it->second;
  return static_cast<std::uint32_t>(times.end() - std::upper_bound(times.begin(), times.end(), since));
}

}  // namespace dissem::engine
