#include "engine/repair/repair_server.h"

#include <algorithm>

#include "engine/repair/responder_rank.h"

namespace dissem::engine {
namespace {

bool bit_set(const std::vector<std::uint8_t>& bits, std::uint32_t i) {
  return i / 8 < bits.size() && (bits[i / 8] >> (i % 8) & 1) != 0;
}

ServeBudget::Settings budget_settings(const EngineConfig& c) {
  const auto capacity = static_cast<double>(c.send_rate_bps());
  return {c.serve_member_share * capacity, c.serve_stranger_share * capacity, c.serve_burst, c.max_peers,
          c.payload_size + kAnswerHeaderCost};
}

}  // namespace

RepairServer::RepairServer(NodeContext& node, RepairServerSources sources)
    : node_(node), from_(sources), budget_(budget_settings(node.config)) {}

void RepairServer::on_request(wire::MissingFragmentRequest& r, Micros now) {
  budget_request(r, now);
  for (const auto& w : r.wants())
    for (const auto& need : w.windows()) from_.windows.on_request(StreamId{w.group(), w.publisher()}, need, now);
  std::uint64_t air_bytes = 0;
  const auto answers = plain_answers(r, air_bytes, now);
  schedule_answers(r.requester(), answers, air_bytes, now);
}

// What `r` asks of this node by message (block requests are handed to
// on_block_request), and the air time the answers compete for: one fragment
// per message, this request's and those already pending here (a large
// message is deduplicated fragment by fragment as it drains, by the NTM).
std::vector<RepairServer::Answer> RepairServer::plain_answers(const wire::MissingFragmentRequest& r,
                                                              std::uint64_t& air_bytes, Micros now) {
  std::vector<Answer> answers;
  air_bytes = static_cast<std::uint64_t>(server_.pending()) * node_.config.payload_size;
  for (const auto& w : r.wants()) {
    for (const auto& m : w.messages()) {
      const MessageId id{w.group(), w.publisher(), m.seq()};
      const MessageState* st = node_.tracker.find(id);
      if (st == nullptr || !st->meta) continue;
      if (!m.blocks().empty()) {
        on_block_request(id, m, now);
        continue;
      }
      if (!st->complete && st->have.empty()) continue;
      Answer a{id, m.ranges().empty(), {}};
      std::uint64_t bytes = a.whole ? st->meta->total_length : 0;
      for (int i = 0; i + 1 < m.ranges().size(); i += 2) {
        a.ranges.emplace_back(m.ranges(i), m.ranges(i + 1));
        const std::uint32_t end = std::min(m.ranges(i + 1), st->meta->total_length);
        bytes += end - std::min(m.ranges(i), end);
      }
      air_bytes += std::min<std::uint64_t>(bytes, node_.config.payload_size);
      answers.push_back(std::move(a));
    }
  }
  return answers;
}

// Each answer is due after its rank's turn (responder_rank.h), or after a
// uniform random delay without ranked answers.
void RepairServer::schedule_answers(NodeId requester, const std::vector<Answer>& answers, std::uint64_t air_bytes,
                                    Micros now) {
  if (!from_.timing.ranked_answers) {
    for (const auto& a : answers)
      server_.on_request(a.id, a.whole, a.ranges, now, now + node_.rng.uniform_int(0, from_.timing.serve_delay_max));
    return;
  }
  // Each rank waits a turn: time for the servers ranked before it to put
  // their answers on the air and for them to reach it.
  const Micros turn = static_cast<Micros>(static_cast<double>(air_bytes) * from_.timing.air_us_per_byte) +
                      2 * from_.timing.packet_time + from_.timing.rtt / 2;
  for (const auto& a : answers) {
    const auto rank = static_cast<Micros>(responder_rank(a.id, node_.config.node_id, requester, from_.peers.all()));
    server_.on_request(a.id, a.whole, a.ranges, now, now + rank * turn + node_.rng.uniform_int(0, turn / 2));
  }
}

bool RepairServer::first_pass_pending(const MessageId& id, const coding::BlockLayout& layout, std::uint32_t block) const {
  bool pending = false;
  from_.queues.publications.for_each([&](const PublicationCursor& cur) {
    if (cur.id != id) return;
    pending = cur.parity_left > 0 ? block >= cur.parity_block
                                  : cur.next_offset < layout.total && block >= layout.block_of(cur.next_offset);
  });
  return pending;
}

void RepairServer::on_block_request(const MessageId& id, const wire::MessageWants& m, Micros now) {
  const MessageState* st = node_.tracker.find(id);
  for (const auto& need : m.blocks()) {
    const coding::BlockLayout layout{st->meta->total_length, need.symbol_size(), wire::block_symbols_of(need.block_symbols())};
    if (layout.stride > layout.total || need.block() >= layout.blocks()) continue;  // not this message's layout
    if (first_pass_pending(id, layout, need.block())) continue;  // our first pass will bring it
    BlockAsk ask{need.deficit(), need.symbol_size(), layout.block_symbols,
                 std::vector<std::uint8_t>(need.held().begin(), need.held().end())};
    Micros delay = node_.rng.uniform_int(0, from_.timing.serve_delay_max);
    if (!from_.coder.holds_block(id, layout, need.block())) {
      // A partial holder helps only with what the requester lacks: a source
      // not in its bitmap, or coded symbols reaching beyond the sources in
      // it (recoded, they carry everything held). It answers after the
      // whole-block holders had their chance.
      const coding::BlockDecoder* decoder = from_.coder.messages().decoder(id, need.block());
      bool useful = decoder != nullptr && node_.config.coding && decoder->innovative_for(ask.held) > 0;
      for (std::uint32_t i = 0; !useful && i < layout.symbols_in(need.block()); ++i) {
        const std::uint32_t off = layout.source_offset(need.block(), i);
        useful = !bit_set(ask.held, i) && st->have.contains(off, off + layout.source_length(need.block(), i));
      }
      if (!useful) continue;
      delay += from_.timing.serve_delay_max;
    }
    server_.on_block_request(id, need.block(), ask, now, now + delay);
  }
}

void RepairServer::serve_block(const ServeTask& task, const MessageState& st, std::uint32_t block, const BlockAsk& ask,
                           Micros now) {
  const coding::BlockLayout layout{st.meta->total_length, ask.symbol_size, ask.block_symbols};
  const Micros since = task.requested_at - from_.timing.in_flight_slack;
  const std::uint32_t heard = from_.block_memory.count_since(task.message, block, since, now);
  if (node_.config.use_traffic_memory && heard >= ask.deficit) {
    ++node_.stats.repairs_suppressed_ntm;
    return;
  }
  std::uint32_t remaining = node_.config.use_traffic_memory ? ask.deficit - heard : ask.deficit;
  std::vector<std::uint8_t> skip;
  if (!from_.coder.holds_block(task.message, layout, block)) {
    // A partial holder can give at most what it holds outside the span of
    // the requesters' sources: its other sources, and coded symbols that
    // reach beyond them. (Ranks alone cannot tell: two holders of equal
    // rank, one with a parity symbol, can complete each other.)
    if (!from_.coder.messages().learn(task.message, layout)) return;
    const coding::BlockDecoder* decoder = from_.coder.open_decoder(task.message, layout, block);
    if (decoder == nullptr) return;
    remaining = std::min(remaining, static_cast<std::uint32_t>(decoder->innovative_for(ask.held)));
    skip = ask.held;
  }
  if (remaining == 0) return;
  // A newer request for a block already queued replaces the older one: the
  // deficit it states is counted from its own arrival.
  bool queued_already = false;
  from_.queues.coded.for_each([&](CodedTask& queued) {
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
  if (from_.queues.coded.size() >= node_.config.max_queued_datagrams) return;
  from_.queues.coded.push(node_.tracker.priority_of(task.message),
                   CodedTask{task.message, block, layout, since, ask.deficit, remaining, true, std::move(skip)});
  node_.stats.repairs_queued += remaining;
}

// Plain fragments at `offsets`, unless the NTM heard them since the request.
void RepairServer::queue_fragment_repairs(const ServeTask& task, std::vector<std::uint32_t> offsets, Micros now) {
  // Several nodes may answer the same request. Walking the list in the
  // same order they would race for the same next fragment every slot and
  // send it twice before hearing each other; a random order each keeps
  // them on different fragments, and the NTM then drops what the other sent.
  for (std::size_t i = offsets.size(); i > 1; --i)
    std::swap(offsets[i - 1], offsets[static_cast<std::size_t>(node_.rng.uniform_int(0, static_cast<std::int64_t>(i) - 1))]);
  std::size_t queued = 0;
  const Micros since = task.requested_at - from_.timing.in_flight_slack;
  for (const std::uint32_t off : offsets) {
    const FragmentKey key{task.message, off};
    const auto seen = from_.ntm.last_seen(key, now);
    if (node_.config.use_traffic_memory && seen && *seen > since) {
      ++node_.stats.repairs_suppressed_ntm;
      continue;
    }
    if (from_.queues.repair_keys.contains(key)) continue;
    if (from_.queues.repairs.size() >= node_.config.max_queued_datagrams || ++queued > node_.config.max_request_fragments) {
      ++node_.stats.queue_drops;
      return;
    }
    from_.queues.repairs.push(node_.tracker.priority_of(task.message), QueuedFragment{key, 0, FragmentOrigin::Repair, since, 0});
    from_.queues.repair_keys.insert(key);
    ++node_.stats.repairs_queued;
  }
}

void RepairServer::serve_due(Micros now) {
  for (auto& task : server_.take_due(now)) {
    const MessageState* st = node_.tracker.find(task.message);
    if (st == nullptr || !st->meta) continue;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> wanted;
    if (task.whole) {
      wanted.emplace_back(0, st->meta->total_length);
    } else {
      wanted = task.ranges.ranges();
    }
    std::vector<std::uint32_t> offsets;
    for (const auto& [b, e] : wanted)
      for (const auto& [off, len] : node_.store->fragment_offsets(task.message, b, e)) offsets.push_back(off);
    for (const auto& [block, ask] : task.blocks) {
      if (node_.config.coding) {
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
    node_.store->touch(task.message, now);
  }
}

}  // namespace dissem::engine
