#include "engine/requests/request_rounds.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "engine/link_timers.h"
#include "engine/requests/mfr_builder.h"
#include "wire/control_entry_sizes.h"

namespace dissem::engine {

std::optional<std::vector<std::uint8_t>> RequestRounds::build(const WantsGroup& wanted, Micros now) {
  RequestRoundParams p;
  p.self = node_.config.node_id;
  p.probability = node_.config.request_probability;
  // MFRs may use at most their budget share of the link per round.
  const double budget = node_.config.mfr_budget_fraction * static_cast<double>(node_.config.link_capacity_bps) *
                        static_cast<double>(from_.timing.request_round) / (8.0 * static_cast<double>(kSeconds));
  p.max_bytes = std::clamp<std::size_t>(static_cast<std::size_t>(budget), 128, node_.config.payload_size);
  p.backoff_base = from_.timing.request_backoff;
  p.drain_us_per_byte = from_.timing.drain_us_per_byte;
  // Ranked answers to many messages take about one turn, the air time of one
  // fragment per message; two turns' worth leaves room for a missing first server.
  p.answer_spread_per_item = static_cast<Micros>(2.0 * from_.timing.air_us_per_byte * static_cast<double>(node_.config.payload_size));
  p.max_backoff_exponent = node_.config.max_backoff_exponent;
  p.tail_timeout = from_.timing.tail_timeout;
  p.tail_chunk = 8 * node_.config.payload_size;
  if (node_.config.coding)
    p.block_needs = [this, now](const MessageId& id, const MessageState& st, const MissingRanges& missing) {
      return block_needs(id, st, missing, now);
    };
  if (from_.windows.enabled())
    p.window_member = [this](const MessageId& id, const MessageState& st) { return from_.windows.member(id, st); };
  auto round = build_request_round(node_.tracker, wanted, p, now, node_.rng);
  const std::size_t used = round ? wire::encoded_size(round->request) : wire::mfr_header_size();
  auto windows = window_requests(wanted, p.max_bytes > used ? p.max_bytes - used : 0, now);
  if (!round && windows.empty()) return std::nullopt;
  if (!round) {
    round.emplace();
    round->request.set_requester(node_.config.node_id);
  }
  for (auto& w : windows) {
    *round->request.add_wants() = std::move(w);
    ++round->items;
  }
  ++node_.stats.mfrs_sent;
  node_.stats.mfr_items_sent += round->items;
  auto bytes = wire::encode(round->request);
  // Requests keep to their half of the control share: on a slow link the
  // next round waits until this one's bytes fit it.
  clock_.spacing_until = now + control_spacing(node_.config, bytes.size());
  return bytes;
}

namespace {
// A lost small message is asked for once the stream has moved this many
// windows past it (or, on a slow stream, once that long has passed, at most
// kWindowWaitMax): the publisher's proactive window symbols have had their
// chance, and the losses of several receivers gather in one span, so the
// same answers serve them all.
constexpr std::uint64_t kRequestWindows = 4;
constexpr Micros kWindowWaitMax = 2 * kSeconds;
}  // namespace

// Lost small messages per stream, ascending (the tracker's order).
std::map<StreamId, std::vector<RequestRounds::LostSmall>> RequestRounds::lost_small(const WantsGroup& wanted, Micros now) {
  std::map<StreamId, std::vector<LostSmall>> lost;
  node_.tracker.for_each_incomplete([&](const MessageId& id, MessageState& st) {
    if (!wanted(id.group) || !from_.windows.member(id, st)) return;
    const StreamState* s = node_.tracker.stream(stream_of(id));
    const std::uint64_t wait = kRequestWindows * node_.config.window_messages;
    const bool passed = s != nullptr && s->newest >= id.seq + wait;
    Micros quiet = from_.timing.tail_timeout;
    if (const auto interval = from_.reception.message_interval(id.publisher))
      quiet = std::max(quiet, std::min<Micros>(static_cast<Micros>(wait) * *interval, kWindowWaitMax));
    const bool due = st.request.next_eligible <= now && (passed || now - st.first_seen >= quiet);
    lost[stream_of(id)].push_back(LostSmall{id.seq, &st, due});
  });
  return lost;
}

namespace {

// The window request for `stream` from `first` over the messages `unknown`
// there, of which the stream's equations determine `rank`.
wire::PublisherWants window_want(const StreamId& stream, std::uint64_t first, const std::set<std::uint64_t>& unknown,
                                 std::size_t rank) {
  wire::PublisherWants w;
  w.set_group(stream.group);
  w.set_publisher(stream.publisher);
  auto* need = w.add_windows();
  need->set_first_seq(first);
  need->set_count(static_cast<std::uint32_t>(*unknown.rbegin() - first + 1));
  need->set_deficit(static_cast<std::uint32_t>(unknown.size() - rank));
  std::string held((need->count() + 7) / 8, '\0');
  for (std::uint32_t i = 0; i < need->count(); ++i)
    if (!unknown.contains(first + i)) held[i / 8] = static_cast<char>(held[i / 8] | (1 << (i % 8)));
  need->set_held(std::move(held));
  return w;
}

}  // namespace

std::vector<wire::PublisherWants> RequestRounds::window_requests(const WantsGroup& wanted, std::size_t max_bytes,
                                                                Micros now) {
  std::vector<wire::PublisherWants> out;
  if (!from_.windows.enabled()) return out;
  auto lost = lost_small(wanted, now);
  wire::FrameBudget budget(max_bytes);
  for (auto& [stream, members] : lost) {
    // The span starts at the oldest member due and covers every lost
    // message within 64 of it, due or not, and every message the stream's
    // window equations still involve there: the deficit counts them all.
    const auto start = std::find_if(members.begin(), members.end(), [](const LostSmall& l) { return l.due; });
    if (start == members.end() || !node_.rng.chance(node_.config.request_probability)) continue;
    const std::uint64_t first = start->seq;
    const std::uint64_t limit = first + wire::kMaxWindowMessages - 1;
    std::set<std::uint64_t> unknown;
    for (auto it = start; it != members.end() && it->seq <= limit; ++it) unknown.insert(it->seq);
    std::size_t rank = 0;
    if (const coding::WindowDecoder* decoder = from_.windows.streams().decoder(stream)) {
      for (const auto seq : decoder->unknowns())
        if (seq >= first && seq <= limit) unknown.insert(seq);
      rank = decoder->rank_within(first, *unknown.rbegin());
    }
    if (rank >= unknown.size()) continue;  // determined: solved as soon as its sources are in
    auto w = window_want(stream, first, unknown, rank);
    if (!budget.take(wire::mfr_window_entry_size(w, node_.config.payload_size))) break;
    // Every member of the span waits for the answers, as a listed item does.
    const auto drain = static_cast<Micros>(static_cast<double>(w.windows(0).deficit()) * node_.config.payload_size *
                                           from_.timing.drain_us_per_byte);
    for (auto it = start; it != members.end() && it->seq <= limit; ++it) {
      RequestState& r = it->state->request;
      r.next_eligible = now + drain + (from_.timing.request_backoff << std::min(r.level, node_.config.max_backoff_exponent));
      r.level = std::min(r.level + 1, node_.config.max_backoff_exponent);
      r.deferred = false;
    }
    out.push_back(std::move(w));
  }
  return out;
}

namespace {
constexpr std::uint32_t kTailSymbols = 8;  // as the byte-range tail: 8 fragments at a time
}  // namespace

namespace {

// What one block lacks: its deficit and the sources held (nullopt when its
// rank is whole). A block whose first pass is not seen to be over may simply
// not be sent yet: like a silent tail, it is asked for a few symbols at a time.
std::optional<wire::BlockNeed> block_need(const coding::BlockLayout& layout, std::uint32_t block,
                                          const MessageState& st, const coding::BlockDecoder* decoder,
                                          bool first_pass_over) {
  const std::uint32_t k = layout.symbols_in(block);
  std::string held((k + 7) / 8, '\0');
  std::uint32_t sources = 0;
  for (std::uint32_t i = 0; i < k; ++i) {
    const std::uint32_t off = layout.source_offset(block, i);
    if (st.have.contains(off, off + layout.source_length(block, i)) || (decoder != nullptr && decoder->has_source(i))) {
      held[i / 8] = static_cast<char>(held[i / 8] | (1 << (i % 8)));
      ++sources;
    }
  }
  const std::uint32_t rank = decoder != nullptr ? static_cast<std::uint32_t>(decoder->rank()) : sources;
  if (rank >= k) return std::nullopt;
  std::uint32_t deficit = k - rank;
  if (!first_pass_over) deficit = std::min(deficit, kTailSymbols);
  wire::BlockNeed need;
  need.set_block(block);
  need.set_deficit(deficit);
  need.set_symbol_size(layout.stride);
  if (sources > 0) need.set_held(std::move(held));
  if (layout.block_symbols != wire::kDefaultBlockSymbols) need.set_block_symbols(layout.block_symbols);
  return need;
}

}  // namespace

RequestRounds::FirstPassSeen RequestRounds::first_pass_seen(const MessageId& id, const MessageState& st,
                                                            const coding::BlockLayout& layout, Micros now) const {
  // A block is asked for once its first pass, proactive redundancy
  // included, is over: something of a later block arrived, or the message
  // has been silent as long as a tail must be before it is asked for.
  std::uint32_t seen_end = st.have.empty() ? 0 : st.have.max_end();
  // Publishers send their messages in order: a later one seen means this
  // one's first pass is over.
  if (const StreamState* stream = node_.tracker.stream(stream_of(id)); stream != nullptr && stream->newest > id.seq)
    seen_end = layout.total + 1;
  if (const auto b = from_.coder.messages().last_block_heard(id)) seen_end = std::max(seen_end, layout.end(*b));
  const Micros mean_gap = st.fragments > 1 ? (st.last_arrival - st.first_seen) / (st.fragments - 1) : 0;
  // Silence: the byte-range tail rule, and also long enough, at the
  // publisher's own pace and loss, that the gap is unlikely to be a run of
  // losses (a run of n has probability loss^n: n is chosen for 0.5 %).
  Micros quiet = std::max(from_.timing.tail_timeout, 4 * mean_gap);
  if (const auto interval = from_.reception.fragment_interval(id.publisher)) {
    const double loss = std::clamp(from_.reception.loss(id.publisher).value_or(0.0), 0.0, 0.9);
    const double run = loss > 0.01 ? std::clamp(std::ceil(std::log(0.005) / std::log(loss)), 4.0, 50.0) : 4.0;
    quiet = std::max(quiet, static_cast<Micros>(run * static_cast<double>(*interval)));
  }
  return {seen_end, now - st.last_arrival >= quiet};
}

std::optional<std::vector<wire::BlockNeed>> RequestRounds::block_needs(const MessageId& id, const MessageState& st,
                                                                  const MissingRanges& missing, Micros now) {
  const coding::BlockLayout* layout = from_.coder.messages().layout(id);
  if (!st.meta || layout == nullptr) return std::nullopt;  // ask by ranges
  const FirstPassSeen seen = first_pass_seen(id, st, *layout, now);
  std::vector<wire::BlockNeed> out;
  auto consider = [&](std::uint32_t block) {
    if (!out.empty() && out.back().block() >= block) return;
    const bool first_pass_over = seen.end > layout->end(block);
    if (!seen.silent && !first_pass_over) return;
    if (auto need = block_need(*layout, block, st, from_.coder.messages().decoder(id, block), first_pass_over))
      out.push_back(std::move(*need));
  };
  if (missing.whole) {
    for (std::uint32_t b = 0; b < layout->blocks(); ++b) consider(b);
  } else {
    for (const auto& [begin, end] : missing.ranges)
      for (std::uint32_t b = layout->block_of(begin); b <= layout->block_of(end - 1); ++b) consider(b);
  }
  return out;
}

}  // namespace dissem::engine
