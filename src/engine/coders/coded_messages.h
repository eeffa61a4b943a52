// Coding state of the messages this node is completing: each one's block
// layout once a fragment or symbol has revealed it, and a BlockDecoder for
// every block that has received coded symbols (seeded with the fragments of
// that block already held). Decoders hold payload copies, so their memory is
// bounded (EngineConfig::coding_memory): past it, new blocks are not opened
// and their coded symbols are dropped (the requester asks again later).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <unordered_map>

#include "coding/block_decoder.h"
#include "coding/block_layout.h"
#include "core/types.h"

namespace dissem::engine {

class CodedMessages {
 public:
  explicit CodedMessages(std::uint64_t memory_budget) : budget_(memory_budget) {}

  // Records the layout of `id`. False if it contradicts the one known (a
  // buggy or hostile peer: the caller drops what it brought).
  bool learn(const MessageId& id, const coding::BlockLayout& layout);
  const coding::BlockLayout* layout(const MessageId& id) const;
  // A coded symbol of `block` arrived (the layout must be known).
  void note_block_heard(const MessageId& id, std::uint32_t block);
  // The furthest block a coded symbol came for.
  std::optional<std::uint32_t> last_block_heard(const MessageId& id) const;

  coding::BlockDecoder* decoder(const MessageId& id, std::uint32_t block);
  // Opens the decoder of `block` (the layout must be known); nullptr when
  // over the memory budget.
  coding::BlockDecoder* open(const MessageId& id, std::uint32_t block);
  // Call after adding symbols to a decoder, so its memory is accounted.
  void update_memory(const MessageId& id, std::uint32_t block);
  void close(const MessageId& id, std::uint32_t block);
  // The message is complete or given up: everything about it goes.
  void forget(const MessageId& id);

  std::uint64_t memory_bytes() const { return memory_; }
  std::size_t open_decoders() const;

 private:
  struct Entry {
    std::optional<coding::BlockLayout> layout;
    std::optional<std::uint32_t> last_block_heard;
    std::map<std::uint32_t, coding::BlockDecoder> decoders;
    std::map<std::uint32_t, std::size_t> charged;  // memory counted per decoder
  };
  std::uint64_t budget_;
  std::uint64_t memory_ = 0;
  std::unordered_map<MessageId, Entry, MessageIdHash> entries_;
};

}  // namespace dissem::engine
