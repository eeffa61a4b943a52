// Block coding at a node (coding/): a decoder per block of a message being
// received, seeded with the block's fragments already held; the missing
// fragments recovered once a block's rank is full; and fresh symbols
// generated, from a whole block held here (coefficients named by a seed)
// or, for a partial block, by recoding what its decoder holds (explicit
// coefficients). It owns the messages' layouts and decoders (CodedMessages)
// and the source rows of the blocks most recently coded from (read from
// the cache once per block, not once per symbol). What a block yields is
// handed back: the node accepts the fragments as any other (node_coding.cpp).
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "coding/block_layout.h"
#include "engine/coders/coded_messages.h"
#include "engine/node_context.h"
#include "wire/codec.h"

namespace dissem::engine {

class BlockCoder {
 public:
  explicit BlockCoder(NodeContext& node) : node_(node), coded_(node.config.coding_memory) {}

  // What a completed block recovered: its sources missing here, (offset,
  // bytes) in block order, and the block size of its layout.
  struct Recovered {
    std::vector<std::pair<std::uint32_t, std::vector<std::uint8_t>>> fragments;
    std::uint32_t block_symbols = 0;
  };

  // The stride of a message as a fragment of it, or its known layout, tells (0: unknown).
  std::uint32_t stride_of(const MessageId& id, std::uint32_t total, std::uint32_t offset, std::uint32_t length) const;
  // The layout this node codes its own messages with.
  coding::BlockLayout own_layout(std::uint32_t total) const;
  // Whether every source symbol of `block` is held here.
  bool holds_block(const MessageId& id, const coding::BlockLayout& layout, std::uint32_t block) const;

  // The decoder of `block`, opened (with the fragments held) if need be; the
  // layout must be learnt. nullptr over the memory budget.
  coding::BlockDecoder* open_decoder(const MessageId& id, const coding::BlockLayout& layout, std::uint32_t block);
  // A new source fragment of an incomplete message, into its block's
  // decoder if one is open; what the block recovers if that completes it.
  Recovered add_source(const MessageMeta& meta, std::uint32_t offset, std::span<const std::uint8_t> payload,
                       std::uint32_t block_symbols);
  // A coded symbol of a block not held whole here (the layout learnt):
  // into the block's decoder; what the block recovers if it completes it.
  Recovered add_symbol(const wire::CodedSymbol& c, const MessageMeta& meta, const coding::BlockLayout& layout);

  // A fresh coded symbol of `block`: from the whole block when held, else
  // recoded from what its decoder holds; nullopt when neither is possible.
  std::optional<std::vector<std::uint8_t>> encode_symbol(const MessageId& id, const coding::BlockLayout& layout,
                                                         std::uint32_t block, bool repair,
                                                         std::span<const std::uint8_t> skip = {});

  // A message settled: its layout and decoders go.
  void forget(const MessageId& id) { coded_.forget(id); }
  // A message distrusted: that, and the source rows read of it.
  void drop(const MessageId& id);

  CodedMessages& messages() { return coded_; }
  const CodedMessages& messages() const { return coded_; }

 private:
  // The block's decoder is complete: its sources, the decoder closed.
  Recovered finish_block(const MessageId& id, std::uint32_t block);
  const std::vector<std::vector<std::uint8_t>>* block_sources(const MessageId& id, const coding::BlockLayout& layout,
                                                              std::uint32_t block);

  struct BlockRows {
    MessageId message;
    std::uint32_t block = 0;
    std::vector<std::vector<std::uint8_t>> rows;
  };

  NodeContext& node_;
  CodedMessages coded_;
  std::deque<BlockRows> block_rows_;  // newest last
};

}  // namespace dissem::engine
