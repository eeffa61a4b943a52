// Coded symbols at a node: receiving them (a decoder per block, seeded with
// the block's fragments already held), recovering the missing fragments once
// a block's rank is full, and generating fresh symbols, from a whole block
// (coefficients named by a seed) or, for a partial block, by recoding what
// the decoder holds (explicit coefficients).
#include <algorithm>

#include "coding/coefficients.h"
#include "coding/linear_combination.h"
#include "engine/fragmenter.h"
#include "engine/node_impl.h"

namespace dissem::engine {
namespace {

constexpr std::size_t kBlockRowsKept = 4;

TrafficKind kind_of(const wire::CodedSymbol& c) {
  if (c.repair()) return TrafficKind::Repair;
  return c.hops() > 0 ? TrafficKind::Forward : TrafficKind::Data;
}

void fill_symbol(wire::CodedSymbol& out, const MessageMeta& meta, std::uint32_t block, std::uint32_t block_symbols,
                 bool repair) {
  fill_message_fields(out, meta, repair);
  out.set_block(block);
  if (block_symbols != wire::kDefaultBlockSymbols) out.set_block_symbols(block_symbols);
}

}  // namespace

std::uint32_t NodeImpl::stride_of(const MessageId& id, std::uint32_t total, std::uint32_t offset,
                                  std::uint32_t length) const {
  if (const std::uint32_t s = coding::stride_from_fragment(total, offset, length)) return s;
  if (const auto* l = coded.layout(id)) return l->stride;
  return 0;
}

coding::BlockLayout NodeImpl::own_layout(std::uint32_t total) const {
  return coding::BlockLayout{total, std::min(config.payload_size, total), config.block_symbols};
}

bool NodeImpl::holds_block(const MessageId& id, const coding::BlockLayout& layout, std::uint32_t block) const {
  const MessageState* st = tracker.find(id);
  if (st == nullptr) return false;
  return st->complete || st->have.contains(layout.begin(block), layout.end(block));
}

void NodeImpl::feed_decoder(const MessageMeta& meta, std::uint32_t offset, std::span<const std::uint8_t> payload,
                            std::uint32_t block_symbols, bool subscribed, Micros now) {
  const std::uint32_t stride = stride_of(meta.id, meta.total_length, offset, static_cast<std::uint32_t>(payload.size()));
  if (stride == 0) return;
  const coding::BlockLayout layout{meta.total_length, stride, block_symbols_of(block_symbols)};
  if (!coded.learn(meta.id, layout)) return;
  const std::uint32_t block = layout.block_of(offset);
  coding::BlockDecoder* decoder = coded.decoder(meta.id, block);
  if (decoder == nullptr) return;
  decoder->add_source((offset - layout.begin(block)) / stride, payload);
  coded.update_memory(meta.id, block);
  if (decoder->complete()) finish_block(meta, block, subscribed, now);
}

void NodeImpl::on_coded_symbol(const wire::CodedSymbol& c, std::size_t size, Micros now) {
  stats.received[static_cast<std::size_t>(kind_of(c))].add(size);
  ++stats.coded_received;
  const MessageMeta meta = meta_of(c, now);
  block_memory.record(meta.id, c.block(), now);
  if (!config.coding) {
    ++stats.coded_ignored;
    return;
  }
  const bool subscribed = subscribers.subscriptions().any(meta.id.group);
  if (!subscribed && !config.cache_unsubscribed) return;
  if (meta.expired_at(now)) return;
  if (integrity.refuse_own_id(meta, now)) return;
  if (!security.authentic(meta)) return;
  if (screen_supersession(meta, now)) return;
  learn_stream(stream_of(meta.id), meta.id.seq, meta.history_window, false, now);

  const coding::BlockLayout layout{meta.total_length, static_cast<std::uint32_t>(c.payload().size()),
                                   block_symbols_of(c.block_symbols())};
  switch (const auto outcome = tracker.on_symbol(meta, now, !c.repair() && c.hops() == 0)) {
    case FragmentOutcome::New:
      expiries.note(meta);
      break;
    case FragmentOutcome::LengthConflict:
    case FragmentOutcome::DigestConflict:
      integrity.on_conflict(meta.id, outcome, now);
      return;
    case FragmentOutcome::Overloaded:
      ++stats.queue_drops;
      return;
    default:
      ++stats.coded_redundant;
      return;
  }
  if (!coded.learn(meta.id, layout)) {
    ++stats.malformed[static_cast<std::size_t>(DecodeError::BadLength)];  // contradicts the layout known
    return;
  }
  decode_symbol(c, meta, layout, subscribed, now);
}

// A symbol of a block not held whole here: into the block's decoder.
void NodeImpl::decode_symbol(const wire::CodedSymbol& c, const MessageMeta& meta, const coding::BlockLayout& layout,
                             bool subscribed, Micros now) {
  coded.note_block_heard(meta.id, c.block());
  if (holds_block(meta.id, layout, c.block())) {
    ++stats.coded_redundant;
    return;
  }
  coding::BlockDecoder* decoder = open_decoder(meta.id, layout, c.block());
  if (decoder == nullptr) {
    ++stats.coded_dropped_memory;
    return;
  }
  std::vector<std::uint8_t> coefs(layout.symbols_in(c.block()));
  if (!c.coefficients().empty()) {
    std::copy(c.coefficients().begin(), c.coefficients().end(), coefs.begin());
  } else {
    coding::coefficients_from_seed(c.seed(), coefs);
  }
  const auto* data = reinterpret_cast<const std::uint8_t*>(c.payload().data());
  const bool innovative = decoder->add_coded(coefs, std::span(data, c.payload().size()));
  coded.update_memory(meta.id, c.block());
  if (!innovative) {
    ++stats.coded_redundant;
    return;
  }
  ++stats.coded_innovative;
  tracker.note_progress(meta.id);
  if (decoder->complete()) finish_block(meta, c.block(), subscribed, now);
}

coding::BlockDecoder* NodeImpl::open_decoder(const MessageId& id, const coding::BlockLayout& layout,
                                             std::uint32_t block) {
  if (coding::BlockDecoder* d = coded.decoder(id, block)) return d;
  coding::BlockDecoder* decoder = coded.open(id, block);
  if (decoder == nullptr) return nullptr;
  // What of the block is already held goes in first.
  const std::uint32_t begin = layout.begin(block);
  for (const auto& f : store->read_fragments(id, begin, layout.end(block))) {
    if (f.offset < begin || (f.offset - begin) % layout.stride != 0 || f.data.size() > layout.stride) continue;
    decoder->add_source((f.offset - begin) / layout.stride, f.data);
  }
  coded.update_memory(id, block);
  return decoder;
}

void NodeImpl::finish_block(const MessageMeta& meta, std::uint32_t block, bool subscribed, Micros now) {
  const coding::BlockLayout layout = *coded.layout(meta.id);
  coding::BlockDecoder* decoder = coded.decoder(meta.id, block);
  const auto recovered = decoder->decode();
  // Copies: accepting the last fragment completes the message, which forgets the decoder.
  std::vector<std::pair<std::uint32_t, std::vector<std::uint8_t>>> fragments;
  for (const std::size_t i : recovered) {
    const auto index = static_cast<std::uint32_t>(i);
    const auto source = decoder->source(i);
    fragments.emplace_back(layout.source_offset(block, index),
                           std::vector<std::uint8_t>(source.begin(), source.begin() + layout.source_length(block, index)));
  }
  coded.close(meta.id, block);
  ++stats.blocks_decoded;
  for (const auto& [offset, data] : fragments) {
    ++stats.fragments_decoded;
    accept_fragment(meta, offset, data, subscribed, ArrivedFrom{0, 0, true, true, layout.block_symbols}, now);
  }
}

const std::vector<std::vector<std::uint8_t>>* NodeImpl::block_sources(const MessageId& id,
                                                                      const coding::BlockLayout& layout,
                                                                      std::uint32_t block) {
  for (auto it = coder_cache.block_rows.rbegin(); it != coder_cache.block_rows.rend(); ++it)
    if (it->block == block && it->message == id && !it->rows.empty() && it->rows.front().size() == layout.stride)
      return &it->rows;
  const std::uint32_t k = layout.symbols_in(block);
  std::vector<std::vector<std::uint8_t>> rows(k);
  for (const auto& f : store->read_fragments(id, layout.begin(block), layout.end(block))) {
    const std::uint32_t rel = f.offset - layout.begin(block);
    if (f.offset < layout.begin(block) || rel % layout.stride != 0 || f.data.size() > layout.stride) continue;
    auto& row = rows[rel / layout.stride];
    row.assign(layout.stride, 0);
    std::copy(f.data.begin(), f.data.end(), row.begin());
  }
  if (std::any_of(rows.begin(), rows.end(), [](const auto& r) { return r.empty(); })) return nullptr;
  if (coder_cache.block_rows.size() >= kBlockRowsKept) coder_cache.block_rows.pop_front();
  coder_cache.block_rows.push_back(CoderCache::BlockRows{id, block, std::move(rows)});
  return &coder_cache.block_rows.back().rows;
}

std::optional<std::vector<std::uint8_t>> NodeImpl::encode_symbol(const MessageId& id, const coding::BlockLayout& layout,
                                                                 std::uint32_t block, bool repair,
                                                                 std::span<const std::uint8_t> skip) {
  const MessageState* st = tracker.find(id);
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
    const auto seed = static_cast<std::uint32_t>(rng.next());
    std::vector<std::uint8_t> coefs(k);
    coding::coefficients_from_seed(seed, coefs);
    std::vector<const std::uint8_t*> ptrs;
    ptrs.reserve(k);
    for (const auto& r : *rows) ptrs.push_back(r.data());
    coding::combine(ptrs, coefs, layout.stride, data);
    out.set_seed(seed);
    ++stats.coded_generated;
  } else {
    const coding::BlockDecoder* decoder = coded.decoder(id, block);
    if (decoder == nullptr || decoder->rank() == 0) return std::nullopt;
    std::string* coefs = out.mutable_coefficients();
    coefs->resize(k);
    if (!decoder->recode(rng.next(), std::span(reinterpret_cast<std::uint8_t*>(coefs->data()), k),
                         std::span(data, layout.stride), skip))
      return std::nullopt;
    ++stats.coded_recoded;
  }
  return wire::encode(out);
}

}  // namespace dissem::engine
