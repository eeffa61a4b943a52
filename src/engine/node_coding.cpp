// Coded symbols received: checked as fragments are (expiry, our own id,
// signatures, supersession), then given to the block coder (block_coder.h);
// the fragments a completed block recovers are accepted as received ones.
#include <algorithm>

#include "engine/fragmenter.h"
#include "engine/node_impl.h"

namespace dissem::engine {
namespace {

TrafficKind kind_of(const wire::CodedSymbol& c) {
  if (c.repair()) return TrafficKind::Repair;
  return c.hops() > 0 ? TrafficKind::Forward : TrafficKind::Data;
}

}  // namespace

void NodeImpl::feed_decoder(const MessageMeta& meta, std::uint32_t offset, std::span<const std::uint8_t> payload,
                            std::uint32_t block_symbols, bool subscribed, Micros now) {
  accept_recovered(meta, coder.add_source(meta, offset, payload, block_symbols), subscribed, now);
}

void NodeImpl::accept_recovered(const MessageMeta& meta, const BlockCoder::Recovered& block, bool subscribed,
                                Micros now) {
  for (const auto& [offset, data] : block.fragments) {
    ++stats.fragments_decoded;
    accept_fragment(meta, offset, data, subscribed, ArrivedFrom{0, 0, true, true, block.block_symbols}, now);
  }
}

void NodeImpl::on_coded_symbol(const wire::CodedSymbol& c, std::size_t size, Micros now) {
  stats.received[static_cast<std::size_t>(kind_of(c))].add(size);
  ++stats.coded_received;
  const MessageMeta meta = meta_of(c, wall(now));
  block_memory.record(meta.id, c.block(), now);
  if (!config.coding) {
    ++stats.coded_ignored;
    return;
  }
  const bool subscribed = subscribers.subscriptions().any(meta.id.group);
  if (!subscribed && !config.cache_unsubscribed) return;
  if (meta.expired_at(wall(now))) return;
  if (integrity.refuse_own_id(meta, now)) return;
  if (!security.authentic(meta)) return;
  if (superseder.screen(meta, now)) return;
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
  if (!coder.messages().learn(meta.id, layout)) {
    ++stats.malformed[static_cast<std::size_t>(DecodeError::BadLength)];  // contradicts the layout known
    return;
  }
  accept_recovered(meta, coder.add_symbol(c, meta, layout), subscribed, now);
}

}  // namespace dissem::engine
