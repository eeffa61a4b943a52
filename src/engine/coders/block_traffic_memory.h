// The Network Traffic Memory per coding block: how many symbols of a block
// (source fragments or coded symbols, from anyone, ourselves included) went
// over the air since a moment. A server answering a deficit of d symbols
// sends only d minus those already heard since the request arrived, so
// several servers together cover the largest deficit once, not once each.
#pragma once

#include <cstdint>
#include <deque>
#include <unordered_map>

#include "core/types.h"

namespace dissem::engine {

class BlockTrafficMemory {
 public:
  explicit BlockTrafficMemory(Micros window) : window_(window) {}
  void set_window(Micros window) { window_ = window; }

  void record(const MessageId& message, std::uint32_t block, Micros now);
  // Symbols of the block heard strictly after `since` (within the window).
  std::uint32_t count_since(const MessageId& message, std::uint32_t block, Micros since, Micros now);
  std::size_t size() const { return log_.size(); }

 private:
  static std::uint64_t key(const MessageId& message, std::uint32_t block);
  void prune(Micros now);

  Micros window_;
  std::unordered_map<std::uint64_t, std::deque<Micros>> heard_;  // per block key, ascending
  std::deque<std::pair<Micros, std::uint64_t>> log_;             // insertion order, for pruning
};

}  // namespace dissem::engine
