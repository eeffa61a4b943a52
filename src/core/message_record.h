// What is known of one cached message without reading its payload: the
// cache's index entry (cache/store.h returns them) and what the deletion
// controllers choose victims from, so controllers need nothing of the cache.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "core/types.h"

namespace dissem {

struct MessageRecord {
  MessageMeta meta;
  bool complete = false;
  bool own = false;                 // published by this node
  std::uint64_t stored_bytes = 0;   // payload bytes held
  Micros first_seen = 0;
  Micros last_used = 0;             // last delivered or served (for LRU)
  // Held byte ranges as (offset, length), ascending. Filled by load_index()
  // for incomplete messages only (complete ones are [0, total_length)).
  std::vector<std::pair<std::uint32_t, std::uint32_t>> fragments;
  // Complete, with its payload in a file, and the store was not closed
  // cleanly since: a power loss may have left holes that read as zeros.
  // Check the digest before trusting it (the engine does, at restart).
  bool unverified = false;
};

}  // namespace dissem
