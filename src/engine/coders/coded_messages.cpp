#include "engine/coders/coded_messages.h"

namespace dissem::engine {

bool CodedMessages::learn(const MessageId& id, const coding::BlockLayout& layout) {
  auto& e = entries_[id];
  if (!e.layout) {
    e.layout = layout;
    return true;
  }
  return *e.layout == layout;
}

const coding::BlockLayout* CodedMessages::layout(const MessageId& id) const {
  auto it = entries_.find(id);
  return it == entries_.end() || !it->second.layout ? nullptr : &*it->second.layout;
}

void CodedMessages::note_block_heard(const MessageId& id, std::uint32_t block) {
  auto it = entries_.find(id);
  if (it == entries_.end()) return;
  auto& last = it->second.last_block_heard;
  if (!last || *last < block) last = block;
}

std::optional<std::uint32_t> CodedMessages::last_block_heard(const MessageId& id) const {
  auto it = entries_.find(id);
  return it == entries_.end() ? std::nullopt : it->second.last_block_heard;
}

coding::BlockDecoder* CodedMessages::decoder(const MessageId& id, std::uint32_t block) {
  auto it = entries_.find(id);
  if (it == entries_.end()) return nullptr;
  auto d = it->second.decoders.find(block);
  return d == it->second.decoders.end() ? nullptr : &d->second;
}

coding::BlockDecoder* CodedMessages::open(const MessageId& id, std::uint32_t block) {
  if (auto* d = decoder(id, block)) return d;
  auto it = entries_.find(id);
  if (it == entries_.end() || !it->second.layout) return nullptr;
  const auto& layout = *it->second.layout;
  const std::uint64_t cost = std::uint64_t{layout.symbols_in(block)} * layout.symbol_size();
  if (memory_ + cost > budget_) return nullptr;
  auto [d, fresh] = it->second.decoders.try_emplace(block, layout.symbols_in(block), layout.symbol_size());
  return &d->second;
}

void CodedMessages::update_memory(const MessageId& id, std::uint32_t block) {
  auto it = entries_.find(id);
  if (it == entries_.end()) return;
  auto d = it->second.decoders.find(block);
  if (d == it->second.decoders.end()) return;
  auto& charged = it->second.charged[block];
  memory_ = memory_ - charged + d->second.memory_bytes();
  charged = d->second.memory_bytes();
}

void CodedMessages::close(const MessageId& id, std::uint32_t block) {
  auto it = entries_.find(id);
  if (it == entries_.end()) return;
  auto c = it->second.charged.find(block);
  if (c != it->second.charged.end()) {
    memory_ -= c->second;
    it->second.charged.erase(c);
  }
  it->second.decoders.erase(block);
}

void CodedMessages::forget(const MessageId& id) {
  auto it = entries_.find(id);
  if (it == entries_.end()) return;
  for (const auto& [block, charged] : it->second.charged) memory_ -= charged;
  entries_.erase(it);
}

std::size_t CodedMessages::open_decoders() const {
  std::size_t n = 0;
  for (const auto& [id, e] : entries_) n += e.decoders.size();
  return n;
}

}  // namespace dissem::engine
