// What window coding reads from the cache once and reuses
// (node_windows.cpp): window images of recently coded messages, and per
// group the last messages our two latest proactive window symbols ended at.
// (Block coding keeps its own: block_coder.h.)
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/types.h"

namespace dissem::engine {

struct CoderCache {
  std::unordered_map<MessageId, std::vector<std::uint8_t>, MessageIdHash> window_images;
  std::deque<MessageId> window_image_order;
  std::unordered_map<std::string, std::array<std::uint64_t, 2>> proactive_marks;
};

}  // namespace dissem::engine
