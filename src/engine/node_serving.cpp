// Answering requests once their random delay has run out: plain fragments
// for byte ranges, coded symbols for block deficits, each checked against
// the traffic memories first; and rebroadcasts released after their delay.
#include <algorithm>

#include "engine/node_impl.h"

namespace dissem::engine {

namespace {

bool bit_set(const std::vector<std::uint8_t>& bits, std::uint32_t i) {
  return i / 8 < bits.size() && (bits[i / 8] >> (i % 8) & 1) != 0;
}

}  // namespace

bool NodeImpl::first_pass_pending(const MessageId& id, const coding::BlockLayout& layout, std::uint32_t block) const {
  bool pending = false;
  queues.publications.for_each([&](const PublicationCursor& cur) {
    if (cur.id != id) return;
    pending = cur.parity_left > 0 ? block >= cur.parity_block
                                  : cur.next_offset < layout.total && block >= layout.block_of(cur.next_offset);
  });
  return pending;
}

void NodeImpl::on_block_request(const MessageId& id, const wire::MessageWants& m, Micros now) {
  const MessageState* st = tracker.find(id);
  for (const auto& need : m.blocks()) {
    const coding::BlockLayout layout{st->meta->total_length, need.symbol_size(), block_symbols_of(need.block_symbols())};
    if (layout.stride > layout.total || need.block() >= layout.blocks()) continue;  // not this message's layout
    if (first_pass_pending(id, layout, need.block())) continue;  // our first pass will bring it
    BlockAsk ask{need.deficit(), need.symbol_size(), layout.block_symbols,
                 std::vector<std::uint8_t>(need.held().begin(), need.held().end())};
    Micros delay = rng.uniform_int(0, timing.serve_delay_max);
    if (!coder.holds_block(id, layout, need.block())) {
      // A partial holder helps only with what the requester lacks: a source
      // not in its bitmap, or coded symbols reaching beyond the sources in
      // it (recoded, they carry everything held). It answers after the
      // whole-block holders had their chance.
      const coding::BlockDecoder* decoder = coder.messages().decoder(id, need.block());
      bool useful = decoder != nullptr && config.coding && decoder->innovative_for(ask.held) > 0;
      for (std::uint32_t i = 0; !useful && i < layout.symbols_in(need.block()); ++i) {
        const std::uint32_t off = layout.source_offset(need.block(), i);
        useful = !bit_set(ask.held, i) && st->have.contains(off, off + layout.source_length(need.block(), i));
      }
      if (!useful) continue;
      delay += timing.serve_delay_max;
    }
    server.on_block_request(id, need.block(), ask, now, now + delay);
  }
}

void NodeImpl::serve_block(const ServeTask& task, const MessageState& st, std::uint32_t block, const BlockAsk& ask,
                           Micros now) {
  const coding::BlockLayout layout{st.meta->total_length, ask.symbol_size, ask.block_symbols};
  const Micros since = task.requested_at - timing.in_flight_slack;
  const std::uint32_t heard = block_memory.count_since(task.message, block, since, now);
  if (config.use_traffic_memory && heard >= ask.deficit) {
    ++stats.repairs_suppressed_ntm;
    return;
  }
  std::uint32_t remaining = config.use_traffic_memory ? ask.deficit - heard : ask.deficit;
  std::vector<std::uint8_t> skip;
  if (!coder.holds_block(task.message, layout, block)) {
    // A partial holder can give at most what it holds outside the span of
    // the requesters' sources: its other sources, and coded symbols that
    // reach beyond them. (Ranks alone cannot tell: two holders of equal
    // rank, one with a parity symbol, can complete each other.)
    if (!coder.messages().learn(task.message, layout)) return;
    const coding::BlockDecoder* decoder = coder.open_decoder(task.message, layout, block);
    if (decoder == nullptr) return;
    remaining = std::min(remaining, static_cast<std::uint32_t>(decoder->innovative_for(ask.held)));
    skip = ask.held;
  }
  if (remaining == 0) return;
  // A newer request for a block already queued replaces the older one: the
  // deficit it states is counted from its own arrival.
  bool queued_already = false;
  queues.coded.for_each([&](CodedTask& queued) {
    if (queued_already || queued.block != block || queued.message != task.message) return;
    queued_already = true;
    if (since >= queued.since) {
      queued.since = since;
      queued.needed = ask.deficit;
      queued.remaining = remaining;
      queued.skip = skip;
    }
  });
  if (queued_already) return;
  if (queues.coded.size() >= config.max_queued_datagrams) return;
  queues.coded.push(tracker.priority_of(task.message),
                   CodedTask{task.message, block, layout, since, ask.deficit, remaining, true, std::move(skip)});
  stats.repairs_queued += remaining;
}

// Plain fragments at `offsets`, unless the NTM heard them since the request.
void NodeImpl::queue_fragment_repairs(const ServeTask& task, std::vector<std::uint32_t> offsets, Micros now) {
  // Several nodes may answer the same request. Walking the list in the
  // same order they would race for the same next fragment every slot and
  // send it twice before hearing each other; a random order each keeps
  // them on different fragments, and the NTM then drops what the other sent.
  for (std::size_t i = offsets.size(); i > 1; --i)
    std::swap(offsets[i - 1], offsets[static_cast<std::size_t>(rng.uniform_int(0, static_cast<std::int64_t>(i) - 1))]);
  std::size_t queued = 0;
  const Micros since = task.requested_at - timing.in_flight_slack;
  for (const std::uint32_t off : offsets) {
    const FragmentKey key{task.message, off};
    const auto seen = ntm.last_seen(key, now);
    if (config.use_traffic_memory && seen && *seen > since) {
      ++stats.repairs_suppressed_ntm;
      continue;
    }
    if (queues.repair_keys.contains(key)) continue;
    if (queues.repairs.size() >= config.max_queued_datagrams || ++queued > config.max_request_fragments) {
      ++stats.queue_drops;
      return;
    }
    queues.repairs.push(tracker.priority_of(task.message), QueuedFragment{key, 0, FragmentOrigin::Repair, since, 0});
    queues.repair_keys.insert(key);
    ++stats.repairs_queued;
  }
}

void NodeImpl::serve_due_requests(Micros now) {
  for (auto& task : server.take_due(now)) {
    const MessageState* st = tracker.find(task.message);
    if (st == nullptr || !st->meta) continue;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> wanted;
    if (task.whole) {
      wanted.emplace_back(0, st->meta->total_length);
    } else {
      wanted = task.ranges.ranges();
    }
    std::vector<std::uint32_t> offsets;
    for (const auto& [b, e] : wanted)
      for (const auto& [off, len] : store->fragment_offsets(task.message, b, e)) offsets.push_back(off);
    for (const auto& [block, ask] : task.blocks) {
      if (config.coding) {
        serve_block(task, *st, block, ask, now);
        continue;
      }
      // Coding off: the fragments the requesters' bitmaps lack, as ARQ would.
      const coding::BlockLayout layout{st->meta->total_length, ask.symbol_size, ask.block_symbols};
      for (std::uint32_t i = 0; i < layout.symbols_in(block); ++i) {
        const std::uint32_t off = layout.source_offset(block, i);
        if (!bit_set(ask.held, i) && (st->complete || st->have.contains(off, off + layout.source_length(block, i))))
          offsets.push_back(off);
      }
    }
    queue_fragment_repairs(task, std::move(offsets), now);
    store->touch(task.message, now);
  }
}

}  // namespace dissem::engine
