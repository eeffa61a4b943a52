#include "engine/network_traffic_memory.h"

namespace dissem::engine {

std::uint64_t NetworkTrafficMemory::fingerprint(const MessageId& message, std::uint32_t offset) {
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
  const std::uint64_t fp = mix(h ^ offset);
  return fp == 0 ? 1 : fp;  // 0 marks an empty slot
}

void NetworkTrafficMemory::record(const MessageId& message, std::uint32_t offset, Micros now) {
  prune(now);
  const std::uint64_t fp = fingerprint(message, offset);
  if (Slot* slot = find_slot(fp)) {
    slot->seen = now;
  } else {
    if (2 * (used_ + 1) > slots_.size()) grow();
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = fp & mask;
    while (slots_[i].fingerprint != 0) i = (i + 1) & mask;
    slots_[i] = Slot{fp, now};
    ++used_;
  }
  log_.emplace_back(now, fp);
}

bool NetworkTrafficMemory::seen_recently(const FragmentKey& key, Micros now) {
  const auto t = last_seen(key, now);
  return t && *t >= now - window_;
}

std::optional<Micros> NetworkTrafficMemory::last_seen(const FragmentKey& key, Micros now) {
  prune(now);
  const Slot* slot = find_slot(fingerprint(key.message, key.offset));
  if (slot == nullptr) return std::nullopt;
  return slot->seen;
}

NetworkTrafficMemory::Slot* NetworkTrafficMemory::find_slot(std::uint64_t fp) {
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = fp & mask; slots_[i].fingerprint != 0; i = (i + 1) & mask)
    if (slots_[i].fingerprint == fp) return &slots_[i];
  return nullptr;
}

// Backward-shift deletion keeps every remaining entry reachable from its
// home slot without tombstones.
void NetworkTrafficMemory::erase_slot(std::size_t i) {
  const std::size_t mask = slots_.size() - 1;
  std::size_t hole = i;
  for (std::size_t j = (i + 1) & mask; slots_[j].fingerprint != 0; j = (j + 1) & mask) {
    const std::size_t home = slots_[j].fingerprint & mask;
    // Move j into the hole unless its home lies cyclically in (hole, j].
    const bool stays = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
    if (!stays) {
      slots_[hole] = slots_[j];
      hole = j;
    }
  }
  slots_[hole] = Slot{};
  --used_;
}

void NetworkTrafficMemory::grow() {
  std::vector<Slot> old(slots_.size() * 2);
  old.swap(slots_);
  const std::size_t mask = slots_.size() - 1;
  for (const Slot& s : old) {
    if (s.fingerprint == 0) continue;
    std::size_t i = s.fingerprint & mask;
    while (slots_[i].fingerprint != 0) i = (i + 1) & mask;
    slots_[i] = s;
  }
}

void NetworkTrafficMemory::prune(Micros now) {
  const Micros horizon = now - window_;
  while (!log_.empty() && log_.front().first < horizon) {
    Slot* slot = find_slot(log_.front().second);
    // Only erase if this log entry is the newest sighting of the fragment.
    if (slot != nullptr && slot->seen == log_.front().first) erase_slot(static_cast<std::size_t>(slot - slots_.data()));
    log_.pop_front();
  }
}

}  // namespace dissem::engine
