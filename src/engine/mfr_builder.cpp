#include "engine/mfr_builder.h"

#include <algorithm>
#include <vector>

namespace dissem::engine {

std::size_t varint_size(std::uint64_t v) {
  std::size_t n = 1;
  while (v >= 0x80) {
    v >>= 7;
    ++n;
  }
  return n;
}

namespace {

struct Candidate {
  const MessageId* id;
  MessageState* state;
  MissingRanges missing;
  std::optional<std::vector<wire::BlockNeed>> blocks;  // coded request instead of ranges
};

// Conservative encoded sizes (tag + length prefix), so the MFR never exceeds
// the budget. Lengths below 16 KiB fit a 2-byte length varint.
constexpr std::size_t kSubmessageOverhead = 3;

std::size_t block_cost(const MessageId& id) { return kSubmessageOverhead + 2 + id.group.size() + 5; }

void back_off(RequestState& r, const RequestRoundParams& p, Micros now, Micros drain) {
  r.next_eligible = now + drain + (p.backoff_base << std::min(r.level, p.max_backoff_exponent));
  r.level = std::min(r.level + 1, p.max_backoff_exponent);
  r.cursor = 0;
  r.deferred = false;
}

// The entry for `id` in `req`: a new message under the current publisher's
// wants when `block` is that publisher's, else under new wants.
wire::MessageWants* add_message(wire::MissingFragmentRequest& req, wire::PublisherWants*& block, const MessageId& id) {
  if (block == nullptr || block->group() != id.group || block->publisher() != id.publisher) {
    block = req.add_wants();
    block->set_group(id.group);
    block->set_publisher(id.publisher);
  }
  auto* mw = block->add_messages();
  mw->set_seq(id.seq);
  return mw;
}

// Lists `c`'s block deficits (from its sweep cursor on, as many as fit).
// False when not even one fits.
bool add_block_needs(wire::MissingFragmentRequest& req, wire::PublisherWants*& block, const MessageId& id,
                     Candidate& c, const RequestRoundParams& params, std::size_t& size, std::size_t base,
                     std::uint64_t& requested_bytes, std::vector<RequestState*>& completed_sweeps) {
  auto& needs = *c.blocks;
  auto start = std::find_if(needs.begin(), needs.end(), [&](const auto& n) { return n.block() >= c.state->request.cursor; });
  std::rotate(needs.begin(), start, needs.end());
  std::size_t cost = 0;
  std::size_t fitted = 0;
  for (const auto& n : needs) {
    const std::size_t one = kSubmessageOverhead + n.ByteSizeLong();
    if (size + base + cost + one > params.max_bytes) break;
    cost += one;
    ++fitted;
  }
  if (fitted == 0) return false;
  auto* mw = add_message(req, block, id);
  for (std::size_t i = 0; i < fitted; ++i) {
    requested_bytes += std::uint64_t{needs[i].deficit()} * needs[i].symbol_size();
    *mw->add_blocks() = std::move(needs[i]);
  }
  size += base + cost;
  if (fitted == needs.size()) {
    completed_sweeps.push_back(&c.state->request);
  } else {
    c.state->request.cursor = needs[fitted].block();  // continue there next round
  }
  return true;
}

}  // namespace

std::optional<RequestRound> build_request_round(MessageTracker& tracker,
                                                const std::function<bool(const std::string&)>& wanted,
                                                const RequestRoundParams& params, Micros now, Random& rng) {
  std::vector<Candidate> candidates;
  std::size_t awaiting = 0;  // asked for before, answers not yet due
  tracker.for_each_incomplete([&](const MessageId& id, MessageState& st) {
    if (!wanted(id.group)) return;
    if (params.window_member && params.window_member(id, st)) return;  // asked for by window
    if (st.request.next_eligible > now) {
      ++awaiting;
      return;
    }
    auto missing = missing_ranges(st, now, params.tail_timeout, params.tail_chunk);
    if (missing.empty()) return;
    std::optional<std::vector<wire::BlockNeed>> blocks;
    if (params.block_needs) {
      blocks = params.block_needs(id, st, missing);
      if (blocks && blocks->empty()) return;  // nothing of it is due yet
    }
    candidates.push_back({&id, &st, std::move(missing), std::move(blocks)});
  });
  if (candidates.empty()) return std::nullopt;

  // The probabilistic subset; never empty, so a lone missing item is not starved.
  std::vector<Candidate*> chosen;
  for (auto& c : candidates)
    if (rng.chance(params.probability)) chosen.push_back(&c);
  if (chosen.empty()) {
    chosen.push_back(&candidates[static_cast<std::size_t>(
        rng.uniform_int(0, static_cast<std::int64_t>(candidates.size()) - 1))]);
  }

  RequestRound round;
  round.candidates = candidates.size();
  auto& req = round.request;
  req.set_requester(params.self);
  std::size_t size = 1 + 5;  // prefix byte + requester
  wire::PublisherWants* block = nullptr;
  std::uint64_t requested_bytes = 0;
  std::size_t range_items = 0;
  std::vector<RequestState*> completed_sweeps;

  for (Candidate* c : chosen) {
    const MessageId& id = *c->id;
    const bool new_block = block == nullptr || block->group() != id.group || block->publisher() != id.publisher;
    const std::size_t base = (new_block ? block_cost(id) : 0) + kSubmessageOverhead + 1 + varint_size(id.seq) +
                             (c->missing.whole || c->blocks ? 0 : kSubmessageOverhead);
    if (size + base > params.max_bytes) break;
    if (c->blocks) {
      if (!add_block_needs(req, block, id, *c, params, size, base, requested_bytes, completed_sweeps)) break;
      ++round.items;
      continue;
    }

    // Ranges start at the item's sweep cursor, so a message with more gaps
    // than fit in one MFR has all of them requested over successive rounds.
    auto& ranges = c->missing.ranges;
    auto start = std::find_if(ranges.begin(), ranges.end(),
                              [&](const auto& r) { return r.first >= c->state->request.cursor; });
    std::rotate(ranges.begin(), start, ranges.end());
    std::size_t ranges_cost = 0;
    std::size_t fitted = 0;
    for (const auto& r : ranges) {
      const std::size_t cost = varint_size(r.first) + varint_size(r.second);
      if (size + base + ranges_cost + cost > params.max_bytes) break;
      ranges_cost += cost;
      ++fitted;
    }
    if (!c->missing.whole && fitted == 0) break;

    auto* mw = add_message(req, block, id);
    for (std::size_t i = 0; i < fitted; ++i) {
      mw->add_ranges(ranges[i].first);
      mw->add_ranges(ranges[i].second);
      requested_bytes += ranges[i].second - ranges[i].first;
    }
    if (c->missing.whole) {
      requested_bytes += c->state->meta ? c->state->meta->total_length : params.max_bytes;
    }
    size += base + ranges_cost;
    ++round.items;
    ++range_items;

    if (c->missing.whole || fitted == ranges.size()) {
      completed_sweeps.push_back(&c->state->request);
    } else {
      c->state->request.cursor = ranges[fitted - 1].second;  // continue there next round
    }
  }
  if (round.items == 0) return std::nullopt;
  // Everything asked for in this round needs time to come back before any of
  // it is worth asking for again.
  auto drain = static_cast<Micros>(static_cast<double>(requested_bytes) * params.drain_us_per_byte);
  if (range_items > 0) drain += params.answer_spread_per_item * static_cast<Micros>(awaiting + round.items - 1);
  for (RequestState* r : completed_sweeps) back_off(*r, params, now, drain);
  return round;
}

namespace {

void defer_once(RequestState& r, Micros until) {
  if (r.deferred) return;
  r.next_eligible = std::max(r.next_eligible, until);
  r.deferred = true;
}

}  // namespace

void defer_overheard_requests(MessageTracker& tracker, const wire::MissingFragmentRequest& request,
                              Micros now, Micros defer, Micros tail_timeout,
                              const std::function<bool(const std::string&)>& deferrable,
                              const BlockNeedsFn& block_needs) {
  for (const auto& w : request.wants()) {
    if (deferrable && !deferrable(w.group())) continue;
    // A window request: its answers are window symbols over the span, which
    // recover our lost small messages in it too (coding on: block_needs given).
    for (const auto& need : w.windows()) {
      if (!block_needs) break;
      for (std::uint64_t seq = need.first_seq(); seq < need.first_seq() + need.count(); ++seq) {
        MessageState* st = tracker.find(MessageId{w.group(), w.publisher(), seq});
        if (st != nullptr && !st->complete && !st->meta) defer_once(st->request, now + defer);
      }
    }
    for (const auto& m : w.messages()) {
      MessageState* st = tracker.find(MessageId{w.group(), w.publisher(), m.seq()});
      if (st == nullptr || st->complete) continue;
      bool covered = m.ranges().empty() && m.blocks().empty();
      if (!m.blocks().empty()) {
        // Coded: covered if every block we need is asked for, whatever the
        // deficit: every symbol answering it is useful to us too, and what
        // it leaves missing we ask for once it has come.
        std::optional<std::vector<wire::BlockNeed>> mine;
        if (block_needs) mine = block_needs(MessageId{w.group(), w.publisher(), m.seq()}, *st, missing_ranges(*st, now, tail_timeout));
        covered = mine && !mine->empty() && std::all_of(mine->begin(), mine->end(), [&](const wire::BlockNeed& n) {
          return std::any_of(m.blocks().begin(), m.blocks().end(), [&](const wire::BlockNeed& o) { return o.block() == n.block(); });
        });
      } else if (!covered) {
        ByteRanges asked;
        for (int i = 0; i + 1 < m.ranges().size(); i += 2) asked.add(m.ranges(i), m.ranges(i + 1));
        const auto mine = missing_ranges(*st, now, tail_timeout);
        covered = !mine.whole && std::all_of(mine.ranges.begin(), mine.ranges.end(), [&](const auto& r) {
          return asked.contains(r.first, r.second);
        });
      }
      if (covered) defer_once(st->request, now + defer);
    }
  }
}

}  // namespace dissem::engine
