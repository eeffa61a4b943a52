#include "engine/requests/mfr_builder.h"

#include <algorithm>
#include <vector>

#include "wire/control_entry_sizes.h"

namespace dissem::engine {
namespace {

struct Candidate {
  const MessageId* id;
  MessageState* state;
  MissingRanges missing;
  std::optional<std::vector<wire::BlockNeed>> blocks;  // coded request instead of ranges
};

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

// The MFR being packed: what it lists so far and what that costs.
struct Packing {
  Packing(RequestRound& round, std::size_t max_bytes)
      : req(round.request), budget(max_bytes, wire::mfr_header_size()) {}
  wire::MissingFragmentRequest& req;
  wire::FrameBudget budget;
  wire::PublisherWants* block = nullptr;  // the publisher's wants being added to
  std::uint64_t requested_bytes = 0;      // what the answers will carry
  std::vector<RequestState*> completed_sweeps;  // items listed to their last gap
};

// Lists `c`'s block deficits (from its sweep cursor on, as many as fit).
// False when not even one fits.
bool add_block_needs(Packing& pk, const MessageId& id, Candidate& c, std::size_t base) {
  auto& needs = *c.blocks;
  auto start = std::find_if(needs.begin(), needs.end(), [&](const auto& n) { return n.block() >= c.state->request.cursor; });
  std::rotate(needs.begin(), start, needs.end());
  std::size_t cost = 0;
  std::size_t fitted = 0;
  for (const auto& n : needs) {
    const std::size_t one = wire::mfr_block_need_size(n, pk.budget.limit());
    if (!pk.budget.fits(base + cost + one)) break;
    cost += one;
    ++fitted;
  }
  if (fitted == 0) return false;
  auto* mw = add_message(pk.req, pk.block, id);
  for (std::size_t i = 0; i < fitted; ++i) {
    pk.requested_bytes += std::uint64_t{needs[i].deficit()} * needs[i].symbol_size();
    *mw->add_blocks() = std::move(needs[i]);
  }
  pk.budget.take(base + cost);
  if (fitted == needs.size()) {
    pk.completed_sweeps.push_back(&c.state->request);
  } else {
    c.state->request.cursor = needs[fitted].block();  // continue there next round
  }
  return true;
}

// Lists `c` whole, or its byte ranges from its sweep cursor on (as many as
// fit), so a message with more gaps than fit in one MFR has all of them
// requested over successive rounds. False when not even one range fits.
bool add_ranges(Packing& pk, const MessageId& id, Candidate& c, std::size_t base, std::size_t max_bytes) {
  auto& ranges = c.missing.ranges;
  auto start = std::find_if(ranges.begin(), ranges.end(), [&](const auto& r) { return r.first >= c.state->request.cursor; });
  std::rotate(ranges.begin(), start, ranges.end());
  std::size_t ranges_cost = 0;
  std::size_t fitted = 0;
  for (const auto& r : ranges) {
    const std::size_t cost = wire::mfr_range_size(r.first, r.second);
    if (!pk.budget.fits(base + ranges_cost + cost)) break;
    ranges_cost += cost;
    ++fitted;
  }
  if (!c.missing.whole && fitted == 0) return false;

  auto* mw = add_message(pk.req, pk.block, id);
  for (std::size_t i = 0; i < fitted; ++i) {
    mw->add_ranges(ranges[i].first);
    mw->add_ranges(ranges[i].second);
    pk.requested_bytes += ranges[i].second - ranges[i].first;
  }
  if (c.missing.whole) pk.requested_bytes += c.state->meta ? c.state->meta->total_length : max_bytes;
  pk.budget.take(base + ranges_cost);
  if (c.missing.whole || fitted == ranges.size()) {
    pk.completed_sweeps.push_back(&c.state->request);
  } else {
    c.state->request.cursor = ranges[fitted - 1].second;  // continue there next round
  }
  return true;
}

// The incomplete messages of wanted groups that may be asked for now;
// `awaiting` counts those asked for before whose answers are not yet due.
std::vector<Candidate> eligible(MessageTracker& tracker, const std::function<bool(const std::string&)>& wanted,
                                const RequestRoundParams& params, Micros now, std::size_t& awaiting) {
  std::vector<Candidate> candidates;
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
  return candidates;
}

// The probabilistic subset; never empty, so a lone missing item is not starved.
std::vector<Candidate*> choose(std::vector<Candidate>& candidates, double probability, Random& rng) {
  std::vector<Candidate*> chosen;
  for (auto& c : candidates)
    if (rng.chance(probability)) chosen.push_back(&c);
  if (chosen.empty()) {
    chosen.push_back(&candidates[static_cast<std::size_t>(
        rng.uniform_int(0, static_cast<std::int64_t>(candidates.size()) - 1))]);
  }
  return chosen;
}

}  // namespace

std::optional<RequestRound> build_request_round(MessageTracker& tracker,
                                                const std::function<bool(const std::string&)>& wanted,
                                                const RequestRoundParams& params, Micros now, Random& rng) {
  std::size_t awaiting = 0;
  auto candidates = eligible(tracker, wanted, params, now, awaiting);
  if (candidates.empty()) return std::nullopt;
  const auto chosen = choose(candidates, params.probability, rng);

  RequestRound round;
  round.candidates = candidates.size();
  round.request.set_requester(params.self);
  Packing pk(round, params.max_bytes);
  std::size_t range_items = 0;
  for (Candidate* c : chosen) {
    const MessageId& id = *c->id;
    const bool new_block = pk.block == nullptr || pk.block->group() != id.group || pk.block->publisher() != id.publisher;
    const std::size_t base = (new_block ? wire::mfr_publisher_size(id.group, pk.budget.limit()) : 0) +
                             wire::mfr_message_size(id.seq, !c->missing.whole && !c->blocks, pk.budget.limit());
    if (!pk.budget.fits(base)) break;
    if (c->blocks ? !add_block_needs(pk, id, *c, base) : !add_ranges(pk, id, *c, base, params.max_bytes)) break;
    ++round.items;
    if (!c->blocks) ++range_items;
  }
  if (round.items == 0) return std::nullopt;
  // Everything asked for in this round needs time to come back before any of
  // it is worth asking for again.
  auto drain = static_cast<Micros>(static_cast<double>(pk.requested_bytes) * params.drain_us_per_byte);
  if (range_items > 0) drain += params.answer_spread_per_item * static_cast<Micros>(awaiting + round.items - 1);
  for (RequestState* r : pk.completed_sweeps) back_off(*r, params, now, drain);
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
