// Duplicate suppression by message id: the fragments this node has already
// decided about, so each is rebroadcast at most once even if it comes back
// (after eviction, or from a restarted neighbour). Bounded: the oldest
// decisions are forgotten first; by then the fragment's wave has passed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <unordered_set>

#include "core/types.h"

namespace dissem::controllers {

class ForwardedMemory {
 public:
  explicit ForwardedMemory(std::size_t capacity = 1u << 16) : capacity_(capacity) {}

  // True the first time (message, offset) is seen; false for a repeat.
  bool first_time(const MessageId& message, std::uint32_t offset) {
    const std::uint64_t key = fingerprint(message, offset);
    if (!seen_.insert(key).second) return false;
    order_.push_back(key);
    if (order_.size() > capacity_) {
      seen_.erase(order_.front());
      order_.pop_front();
    }
    return true;
  }

  std::size_t size() const { return order_.size(); }

 private:
  static std::uint64_t fingerprint(const MessageId& m, std::uint32_t offset) {
    std::uint64_t h = MessageIdHash{}(m);
    h ^= (std::uint64_t{offset} + 0x9e3779b97f4a7c15ULL) * 0xbf58476d1ce4e5b9ULL;
    return h ^ (h >> 31);
  }

  std::size_t capacity_;
  std::unordered_set<std::uint64_t> seen_;
  std::deque<std::uint64_t> order_;
};

}  // namespace dissem::controllers
