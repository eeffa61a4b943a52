// The send path: which datagram goes next, when the pacer allows one.
// Order: control (MFRs, beacons; small and time-critical), then the highest
// message priority level waiting (leveled_queue.h), except for the share
// the fairness floor owes lower levels (priority_floor.h). Within a level,
// own publications and repairs share the rate by PrioritySplit. Repairs are
// checked against the NTM again at the last moment: another node may have
// answered while this one waited in the queue.
#include <algorithm>

#include "engine/fragmenter.h"
#include "engine/node_impl.h"
#include "engine/coders/window_image.h"

namespace dissem::engine {
namespace {

// One frame ready to go (alone, or in a bundle: node_bundling.cpp), counted by kind.
std::optional<OutgoingDatagram> finish(NodeImpl& n, std::vector<std::uint8_t> bytes, TrafficKind kind, Micros) {
  n.stats.sent[static_cast<std::size_t>(kind)].add(bytes.size());
  if (kind == TrafficKind::Data || kind == TrafficKind::Repair || kind == TrafficKind::Forward)
    n.frame_sizes.on_frame(bytes.size());
  return OutgoingDatagram{std::move(bytes), kind};
}

std::optional<std::vector<std::uint8_t>> encode_fragment(NodeImpl& n, const MessageId& id, std::uint32_t offset,
                                                         bool repair, std::uint32_t hops, std::uint32_t* length,
                                                         Micros now, NodeId forwarder = 0) {
  const MessageState* st = n.tracker.find(id);
  if (st == nullptr || !st->meta) return std::nullopt;
  if (st->meta->digest == 0) return std::nullopt;  // every fragment carries the digest
  auto frags = n.store->read_fragments(id, offset, offset + 1);
  if (frags.empty() || frags.front().offset != offset) return std::nullopt;
  wire::DataFragment d;
  fill_fragment(d, *st->meta, offset, frags.front().data, repair, hops, forwarder);
  if (n.config.block_symbols != wire::kDefaultBlockSymbols) d.set_block_symbols(n.config.block_symbols);
  if (length != nullptr) *length = static_cast<std::uint32_t>(frags.front().data.size());
  return wire::encode(d, n.data_encoding(id.publisher, id.group, now));
}

// How much of the planned proactive redundancy may go out now (0..1): all
// of it while nothing else waits to be published, less as other
// publications queue up, none once they would wait longer than
// `redundancy_backlog`. Redundancy must not cost the publisher its offered
// load: a stream near the link's capacity settles where the queue stays
// bounded and redundancy fills only the spare capacity.
double parity_allowance(const NodeImpl& n, const MessageId& current) {
  const double limit = static_cast<double>(n.pacer.rate_bps()) / 8.0 * static_cast<double>(n.config.redundancy_backlog) /
                       static_cast<double>(kSeconds);
  if (limit <= 0) return 0;
  double waiting = 0;
  n.queues.publications.for_each([&](const PublicationCursor& cur) {
    if (waiting > limit || cur.id == current) return;
    const MessageState* st = n.tracker.find(cur.id);
    if (st != nullptr && st->meta) waiting += st->meta->total_length;
  });
  return std::max(0.0, 1.0 - waiting / limit);
}

// Whether our own message `id` gets window symbols as its proactive redundancy.
bool window_coded(NodeImpl& n, const MessageId& id) {
  const MessageState* st = n.tracker.find(id);
  return n.window_coder.enabled() && st != nullptr && st->meta && window_eligible(*st->meta, n.config.payload_size);
}

// Moves the first pass past one fragment; a block just finished gets its
// proactive redundancy; a finished message becomes what our beacons
// advertise for its group.
void advance_publication(NodeImpl& n, std::uint32_t level, std::uint32_t length, std::uint32_t total) {
  PublicationCursor& cur = n.queues.publications.front(level);
  const std::uint32_t offset = cur.next_offset;
  cur.next_offset += length;
  n.own.paced.on_taken(cur.id.group, length);
  if (length > 0 && n.config.coding && cur.parity_left == 0) {
    const coding::BlockLayout layout = n.coder.own_layout(total);
    const std::uint32_t block = layout.block_of(offset);
    if (cur.next_offset == layout.end(block)) {
      const double allowance = parity_allowance(n, cur.id);
      const std::uint32_t k = layout.symbols_in(block);
      cur.parity_left = n.redundancy.parity_for(k, allowance);
      // A window-coded message has no tail of its own: the window symbols
      // that follow it and its successors cover it (and its fraction covers
      // silent receivers on average).
      const bool windowed = window_coded(n, cur.id);
      if (block + 1 == layout.blocks() && allowance >= 1.0 && !windowed)
        cur.parity_left += n.redundancy.tail_margin(k);
      if (!windowed) cur.parity_left = std::max(cur.parity_left, n.redundancy.silent_parity(k));
      cur.parity_block = block;
    }
  }
  if (cur.next_offset < total || cur.parity_left > 0) return;
  if (cur.id.publisher == n.config.node_id) {  // not a message carried for another publisher
    auto& sent = n.own.sent_seq[cur.id.group];
    sent = std::max(sent, cur.id.seq);
  }
  n.own.release(cur);
  n.queues.publications.pop_front(level);
}

// The next first-pass fragment from the cursor's in-memory payload, cut as
// publish() cut it into the cache.
std::optional<std::vector<std::uint8_t>> encode_from_memory(NodeImpl& n, const PublicationCursor& cur,
                                                            const MessageMeta& meta, std::uint32_t* length, Micros now) {
  const auto& payload = *cur.payload;
  *length = std::min<std::uint32_t>(n.config.payload_size, meta.total_length - cur.next_offset);
  wire::DataFragment d;
  fill_fragment(d, meta, cur.next_offset, std::span(payload).subspan(cur.next_offset, *length), false, 0);
  if (n.config.block_symbols != wire::kDefaultBlockSymbols) d.set_block_symbols(n.config.block_symbols);
  return wire::encode(d, n.data_encoding(meta.id.publisher, meta.id.group, now));
}

// Counts a queued fragment the NTM found already on the air, by why it was queued.
void count_suppressed(NodeImpl& n, FragmentOrigin origin) {
  switch (origin) {
    case FragmentOrigin::Repair: ++n.stats.repairs_suppressed_ntm; break;
    case FragmentOrigin::Forward: ++n.stats.forwards_suppressed_ntm; break;
    case FragmentOrigin::Push: ++n.stats.pushes_suppressed_ntm; break;
  }
}

// The next symbol of the coded repair queue's first task, unless the
// symbols heard on the air since its request already cover the deficit.
// Tasks take turns, a symbol each, so several blocks progress together.
std::optional<OutgoingDatagram> next_coded_repair(NodeImpl& n, std::uint32_t level, Micros now) {
  CodedTask t = std::move(n.queues.coded.front(level));
  n.queues.coded.pop_front(level);
  if (n.config.use_traffic_memory && n.block_memory.count_since(t.message, t.block, t.since, now) >= t.needed) {
    ++n.stats.repairs_suppressed_ntm;
    return std::nullopt;
  }
  auto bytes = n.coder.encode_symbol(t.message, t.layout, t.block, true, t.skip);
  if (!bytes) return std::nullopt;  // evicted, or nothing left to recode
  n.block_memory.record(t.message, t.block, now);
  if (--t.remaining > 0) n.queues.coded.push(level, std::move(t));
  n.split.on_sent(true, bytes->size(), n.queues.publications.has(level));
  return finish(n, std::move(*bytes), TrafficKind::Repair, now);
}

// The publisher's next proactive symbol for the block its first pass just finished.
std::optional<OutgoingDatagram> next_parity(NodeImpl& n, std::uint32_t level, Micros now) {
  PublicationCursor& cur = n.queues.publications.front(level);
  const MessageState* st = n.tracker.find(cur.id);
  std::optional<std::vector<std::uint8_t>> bytes;
  std::uint32_t total = 0;
  if (st != nullptr && st->meta) {
    total = st->meta->total_length;
    if (window_coded(n, cur.id)) {
      bytes = n.window_coder.proactive_symbol(cur.id, now);
    } else {
      bytes = n.coder.encode_symbol(cur.id, n.coder.own_layout(total), cur.parity_block, false);
      if (bytes) n.block_memory.record(cur.id, cur.parity_block, now);
    }
  }
  if (!bytes) cur.parity_left = 1;  // evicted: end the block's redundancy (and the message, if last)
  --cur.parity_left;
  if (cur.parity_left == 0 && (total == 0 || cur.next_offset >= total)) advance_publication(n, level, 0, total);
  if (!bytes) return std::nullopt;
  ++n.stats.parity_sent;
  n.split.on_sent(false, bytes->size(), n.queues.repairs.has(level) || n.queues.coded.has(level) || n.queues.windows.has(level));
  return finish(n, std::move(*bytes), TrafficKind::Data, now);
}

// The next datagram of the oldest publication of `level`: its proactive
// redundancy when due, else its next first-pass fragment.
std::optional<OutgoingDatagram> next_first_pass(NodeImpl& n, std::uint32_t level, Micros now) {
  PublicationCursor& cur = n.queues.publications.front(level);
  if (cur.parity_left > 0) return next_parity(n, level, now);
  std::uint32_t length = 0;
  const MessageState* st = n.tracker.find(cur.id);
  auto bytes = st != nullptr && st->meta && cur.payload ? encode_from_memory(n, cur, *st->meta, &length, now)
                                                        : encode_fragment(n, cur.id, cur.next_offset, false, 0, &length, now);
  // A message carried in from another network leaves only while it can
  // still arrive before it expires (publisher/carried_messages.cpp).
  const bool carried = cur.id.publisher != n.config.node_id && cur.next_offset == 0;
  const bool too_late = carried && st != nullptr && st->meta && st->meta->expiry_ms != 0 &&
                        st->meta->expired_at(n.wall(now) + carried_delivery_margin(n.config));
  if (!bytes || st == nullptr || too_late || st->meta->expired_at(n.wall(now))) {
    // It never went out (one that expired while waiting is counted where it expires, NodeImpl::expire_due).
    if (too_late) ++n.stats.carry_too_late;
    n.own.release(cur);
    n.queues.publications.pop_front(level);  // evicted (or expired) before it was fully sent
    return std::nullopt;
  }
  // Already on the air as a repair (a receiver asked for the tail before the
  // first pass reached it): everyone in range had the same chance to hear
  // it, so the first-pass copy would be a duplicate.
  if (n.config.use_traffic_memory && n.ntm.last_seen(FragmentKey{cur.id, cur.next_offset}, now)) {
    ++n.stats.repairs_suppressed_ntm;
    advance_publication(n, level, length, st->meta->total_length);
    return std::nullopt;
  }
  n.ntm.record(FragmentKey{cur.id, cur.next_offset}, now);
  if (n.config.coding)
    n.block_memory.record(cur.id, n.coder.own_layout(st->meta->total_length).block_of(cur.next_offset), now);
  n.note_named_relays(cur.id.group, 0, now);
  advance_publication(n, level, length, st->meta->total_length);
  n.split.on_sent(false, bytes->size(), n.queues.repairs.has(level));
  return finish(n, std::move(*bytes), TrafficKind::Data, now);
}

// The highest level waiting in any send queue below `below` (or at all).
std::optional<std::uint32_t> highest_waiting(const NodeImpl& n, std::optional<std::uint32_t> below) {
  std::optional<std::uint32_t> best;
  auto consider = [&](const auto& q) {
    std::optional<std::uint32_t> l;
    if (below) {
      l = q.highest_below(*below);
    } else if (!q.empty()) {
      l = q.top();
    }
    if (l && (!best || *l > *best)) best = l;
  };
  consider(n.queues.publications);
  consider(n.queues.repairs);
  consider(n.queues.coded);
  consider(n.queues.windows);
  return best;
}

}  // namespace

std::optional<OutgoingDatagram> NodeImpl::next_frame(Micros now) {
  if (!queues.control.empty()) {
    OutgoingDatagram d = std::move(queues.control.front());
    queues.control.pop_front();
    return finish(*this, std::move(d.bytes), d.kind, now);
  }
  if (beacon_pending) {
    // Built as it leaves: stamp and hold times are the moment it goes.
    beacon_pending = false;
    auto beacon = beacons.build(now);
    beacons.sent(now, beacon.bytes.size(), beacon.content);
    adaptation.on_beacon_built(static_cast<std::uint64_t>(wall(now)), now);
    return finish(*this, std::move(beacon.bytes), TrafficKind::Beacon, now);
  }
  // Each pass either sends or drops at least one queued item (stale repairs,
  // evicted publications), so the loop ends.
  while (auto top = highest_waiting(*this, std::nullopt)) {
    std::uint32_t level = *top;
    bool floor_turn = false;
    if (floor.due(config.payload_size)) {
      if (auto lower = floor.turn(*top, [this](std::uint32_t below) { return highest_waiting(*this, below); })) {
        level = *lower;
        floor_turn = true;
      }
    }
    auto d = send_at_level(level, now);
    if (!d) continue;
    floor.on_sent(floor_turn, level, d->bytes.size(), highest_waiting(*this, *top).has_value());
    return d;
  }
  return std::nullopt;
}

std::optional<OutgoingDatagram> NodeImpl::send_at_level(std::uint32_t level, Micros now) {
  const bool repairs = queues.repairs.has(level) || queues.coded.has(level) || queues.windows.has(level);
  const bool take_repair = repairs && (!queues.publications.has(level) || split.prefer_repair());
  // Window answers first: one symbol serves every receiver short in the window.
  if (take_repair && queues.windows.has(level)) {
    auto bytes = window_coder.next_repair(level, now);
    if (!bytes) return std::nullopt;
    split.on_sent(true, bytes->size(), queues.publications.has(level));
    return finish(*this, std::move(*bytes), TrafficKind::Repair, now);
  }
  if (take_repair && queues.coded.has(level)) return next_coded_repair(*this, level, now);
  if (take_repair) {
    QueuedFragment q = queues.repairs.front(level);
    queues.repairs.pop_front(level);
    queues.repair_keys.erase(q.key);
    const auto seen = ntm.last_seen(q.key, now);
    if (config.use_traffic_memory && seen && *seen > q.since && !q.keep_when_heard) {
      count_suppressed(*this, q.origin);
      return std::nullopt;
    }
    // A rebroadcast is not a repair and names its forwarder; a push is
    // (it answers a summary, as a repair answers a request).
    const bool forward = q.origin == FragmentOrigin::Forward;
    auto bytes = encode_fragment(*this, q.key.message, q.key.offset, !forward, q.hops, nullptr, now,
                                 forward ? config.node_id : 0);
    if (!bytes) return std::nullopt;  // evicted or expired meanwhile
    ntm.record(q.key, now);
    if (forward) note_named_relays(q.key.message.group, q.hops, now);
    split.on_sent(true, bytes->size(), queues.publications.has(level));
    if (q.origin == FragmentOrigin::Push) ++stats.pushes_sent;
    return finish(*this, std::move(*bytes), forward ? TrafficKind::Forward : TrafficKind::Repair, now);
  }
  return next_first_pass(*this, level, now);
}

wire::DataEncoding NodeImpl::data_encoding(NodeId source, const std::string& group, Micros now) {
  return naming.encoding(source, group, now, config.beacon_interval, *store);
}

}  // namespace dissem::engine
