// What the coders read from the cache once and reuse (node_coding.cpp,
// node_windows.cpp): source symbols of the blocks most recently coded from
// (once per block, not once per symbol), window images of recently coded
// messages, and per group the last messages our two latest proactive window
// symbols ended at.
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
  struct BlockRows {
    MessageId message;
    std::uint32_t block = 0;
    std::vector<std::vector<std::uint8_t>> rows;
  };
  std::deque<BlockRows> block_rows;  // newest last
  std::unordered_map<MessageId, std::vector<std::uint8_t>, MessageIdHash> window_images;
  std::deque<MessageId> window_image_order;
  std::unordered_map<std::string, std::array<std::uint64_t, 2>> proactive_marks;
};

}  // namespace dissem::engine
