#include "engine/coders/block_coder.h"

#include <algorithm>

#include "coding/coefficients.h"
#include "coding/linear_combination.h"
#include "engine/fragmenter.h"

namespace dissem::engine {
namespace {

constexpr std::size_t kBlockRowsKept = 4;

void fill_symbol(wire::CodedSymbol& out, const MessageMeta& meta, std::uint32_t block, std::uint32_t block_symbols,
                 bool repair) {
  fill_message_fields(out, meta, repair);
  out.set_block(block);
  if (block_symbols != wire::kDefaultBlockSymbols) out.set_block_symbols(block_symbols);
}

}  // namespace

std::uint32_t BlockCoder::stride_of(const MessageId& id, std::uint32_t total, std::uint32_t offset,
                                    std::uint32_t length) const {
  if (const std::uint32_t s = coding::stride_from_fragment(total, offset, length)) return s;
  if (const auto* l = coded_.layout(id)) return l->stride;
  return 0;
}

coding::BlockLayout BlockCoder::own_layout(std::uint32_t total) const {
  return coding::BlockLayout{total, std::min(node_.config.payload_size, total), node_.config.block_symbols};
}

bool BlockCoder::holds_block(const MessageId& id, const coding::BlockLayout& layout, std::uint32_t block) const {
  const MessageState* st = node_.tracker.find(id);
  if (st == nullptr) return false;
  return st->complete || st->have.contains(layout.begin(block), layout.end(block));
}

BlockCoder::Recovered BlockCoder::add_source(const MessageMeta& meta, std::uint32_t offset,
                                             std::span<const std::uint8_t> payload, std::uint32_t block_symbols) {
  const std::uint32_t stride = stride_of(meta.id, meta.total_length, offset, static_cast<std::uint32_t>(payload.size()));
  if (stride == 0) return {};
  const coding::BlockLayout layout{meta.total_length, stride, wire::block_symbols_of(block_symbols)};
  if (!coded_.learn(meta.id, layout)) return {};
  const std::uint32_t block = layout.block_of(offset);
  coding::BlockDecoder* decoder = coded_.decoder(meta.id, block);
  if (decoder == nullptr) return {};
  decoder->add_source((offset - layout.begin(block)) / stride, payload);
  coded_.update_memory(meta.id, block);
  if (!decoder->complete()) return {};
  return finish_block(meta.id, block);
}

BlockCoder::Recovered BlockCoder::add_symbol(const wire::CodedSymbol& c, const MessageMeta& meta,
                                             const coding::BlockLayout& layout) {
  Stats& stats = node_.stats;
  coded_.note_block_heard(meta.id, c.block());
  if (holds_block(meta.id, layout, c.block())) {
    ++stats.coded_redundant;
    return {};
  }
  coding::BlockDecoder* decoder = open_decoder(meta.id, layout, c.block());
  if (decoder == nullptr) {
    ++stats.coded_dropped_memory;
    return {};
  }
  std::vector<std::uint8_t> coefs(layout.symbols_in(c.block()));
  if (!c.coefficients().empty()) {
    std::copy(c.coefficients().begin(), c.coefficients().end(), coefs.begin());
  } else {
    coding::coefficients_from_seed(c.seed(), coefs);
  }
  const auto* data = reinterpret_cast<const std::uint8_t*>(c.payload().data());
  const bool innovative = decoder->add_coded(coefs, std::span(data, c.payload().size()));
  coded_.update_memory(meta.id, c.block());
  if (!innovative) {
    ++stats.coded_redundant;
    return {};
  }
  ++stats.coded_innovative;
  node_.tracker.note_progress(meta.id);
  if (!decoder->complete()) return {};
  return finish_block(meta.id, c.block());
}

coding::BlockDecoder* BlockCoder::open_decoder(const MessageId& id, const coding::BlockLayout& layout,
                                               std::uint32_t block) {
  if (coding::BlockDecoder* d = coded_.decoder(id, block)) return d;
  coding::BlockDecoder* decoder = coded_.open(id, block);
  if (decoder == nullptr) return nullptr;
  // What of the block is already held goes in first.
  const std::uint32_t begin = layout.begin(block);
  for (const auto& f : node_.store->read_fragments(id, begin, layout.end(block))) {
    if (f.offset < begin || (f.offset - begin) % layout.stride != 0 || f.data.size() > layout.stride) continue;
    decoder->add_source((f.offset - begin) / layout.stride, f.data);
  }
  coded_.update_memory(id, block);
  return decoder;
}

BlockCoder::Recovered BlockCoder::finish_block(const MessageId& id, std::uint32_t block) {
  const coding::BlockLayout layout = *coded_.layout(id);
  coding::BlockDecoder* decoder = coded_.decoder(id, block);
  const auto recovered = decoder->decode();
  // Copies: accepting the last fragment completes the message, which forgets the decoder.
  Recovered out{{}, layout.block_symbols};
  for (const std::size_t i : recovered) {
    const auto index = static_cast<std::uint32_t>(i);
    const auto source = decoder->source(i);
    out.fragments.emplace_back(
        layout.source_offset(block, index),
        std::vector<std::uint8_t>(source.begin(), source.begin() + layout.source_length(block, index)));
  }
  coded_.close(id, block);
  ++node_.stats.blocks_decoded;
  return out;
}

void BlockCoder::drop(const MessageId& id) {
  coded_.forget(id);
  std::erase_if(block_rows_, [&](const BlockRows& r) { return r.message == id; });
}

const std::vector<std::vector<std::uint8_t>>* BlockCoder::block_sources(const MessageId& id,
                                                                        const coding::BlockLayout& layout,
                                                                        std::uint32_t block) {
  for (auto it = block_rows_.rbegin(); it != block_rows_.rend(); ++it)
    if (it->block == block && it->message == id && !it->rows.empty() && it->rows.front().size() == layout.stride)
      return &it->rows;
  const std::uint32_t k = layout.symbols_in(block);
  std::vector<std::vector<std::uint8_t>> rows(k);
  for (const auto& f : node_.store->read_fragments(id, layout.begin(block), layout.end(block))) {
    const std::uint32_t rel = f.offset - layout.begin(block);
    if (f.offset < layout.begin(block) || rel % layout.stride != 0 || f.data.size() > layout.stride) continue;
    auto& row = rows[rel / layout.stride];
    row.assign(layout.stride, 0);
    std::copy(f.data.begin(), f.data.end(), row.begin());
  }
  if (std::any_of(rows.begin(), rows.end(), [](const auto& r) { return r.empty(); })) return nullptr;
  if (block_rows_.size() >= kBlockRowsKept) block_rows_.pop_front();
  block_rows_.push_back(BlockRows{id, block, std::move(rows)});
  return &block_rows_.back().rows;
}

std::optional<std::vector<std::uint8_t>> BlockCoder::encode_symbol(const MessageId& id,
                                                                   const coding::BlockLayout& layout,
                                                                   std::uint32_t block, bool repair,
                                                                   std::span<const std::uint8_t> skip) {
  const MessageState* st = node_.tracker.find(id);
  if (st == nullptr || !st->meta) return std::nullopt;
  if (st->meta->digest == 0) return std::nullopt;  // every symbol carries the digest
  wire::CodedSymbol out;
  fill_symbol(out, *st->meta, block, layout.block_symbols, repair);
  std::string* payload = out.mutable_payload();
  payload->resize(layout.stride);
  auto* data = reinterpret_cast<std::uint8_t*>(payload->data());
  const std::uint32_t k = layout.symbols_in(block);
  if (holds_block(id, layout, block)) {
    const auto* rows = block_sources(id, layout, block);
    if (rows == nullptr) return std::nullopt;  // evicted meanwhile
    // A seed of 0 is as good as any other; the draw keeps runs reproducible.
    const auto seed = static_cast<std::uint32_t>(node_.rng.next());
    std::vector<std::uint8_t> coefs(k);
    coding::coefficients_from_seed(seed, coefs);
    std::vector<const std::uint8_t*> ptrs;
    ptrs.reserve(k);
    for (const auto& r : *rows) ptrs.push_back(r.data());
    coding::combine(ptrs, coefs, layout.stride, data);
    out.set_seed(seed);
    ++node_.stats.coded_generated;
  } else {
    const coding::BlockDecoder* decoder = coded_.decoder(id, block);
    if (decoder == nullptr || decoder->rank() == 0) return std::nullopt;
    std::string* coefs = out.mutable_coefficients();
    coefs->resize(k);
    if (!decoder->recode(node_.rng.next(), std::span(reinterpret_cast<std::uint8_t*>(coefs->data()), k),
                         std::span(data, layout.stride), skip))
      return std::nullopt;
    ++node_.stats.coded_recoded;
  }
  return wire::encode(out);
}

}  // namespace dissem::engine
