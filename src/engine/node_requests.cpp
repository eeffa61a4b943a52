// Request rounds: what this node misses, as one probabilistic MFR per round
// (request_scheduler builds it), gated by the incoming traffic. For messages
// whose block layout is known, with coding on, the MFR states a deficit per
// block instead of byte ranges.
#include <algorithm>
#include <cmath>

#include "engine/node_impl.h"
#include "engine/request_scheduler.h"

namespace dissem::engine {

void NodeImpl::run_request_round(Micros now) {
  if (tracker.incomplete_count() == 0) return;
  if (!traffic_below(config.traffic_gate_fraction, now)) {
    ++stats.mfr_rounds_gated;
    return;
  }
  RequestRoundParams p;
  p.self = config.node_id;
  p.probability = config.request_probability;
  // MFRs may use at most their budget share of the link per round.
  const double budget = config.mfr_budget_fraction * static_cast<double>(config.link_capacity_bps) *
                        static_cast<double>(timing.request_round) / (8.0 * static_cast<double>(kSeconds));
  p.max_bytes = std::clamp<std::size_t>(static_cast<std::size_t>(budget), 128, config.payload_size);
  p.backoff_base = timing.request_backoff;
  p.drain_us_per_byte = timing.drain_us_per_byte;
  // Ranked answers to many messages take about one turn, the air time of one
  // fragment per message; two turns' worth leaves room for a missing first server.
  p.answer_spread_per_item = static_cast<Micros>(2.0 * timing.air_us_per_byte * static_cast<double>(config.payload_size));
  p.max_backoff_exponent = config.max_backoff_exponent;
  p.tail_timeout = timing.tail_timeout;
  p.tail_chunk = 8 * config.payload_size;
  if (config.coding)
    p.block_needs = [this, now](const MessageId& id, const MessageState& st, const MissingRanges& missing) {
      return block_needs(id, st, missing, now);
    };
  auto wanted = [this](const std::string& g) { return wants_group(g); };
  auto round = build_request_round(tracker, wanted, p, now, rng);
  if (!round) return;
  ++stats.mfrs_sent;
  stats.mfr_items_sent += round->items;
  enqueue_control(wire::encode(round->request), TrafficKind::Request);
}

namespace {
constexpr std::uint32_t kTailSymbols = 8;  // as the byte-range tail: 8 fragments at a time
}  // namespace

std::optional<std::vector<wire::BlockNeed>> NodeImpl::block_needs(const MessageId& id, const MessageState& st,
                                                                  const MissingRanges& missing, Micros now) {
  const coding::BlockLayout* layout = coded.layout(id);
  if (!st.meta || layout == nullptr) return std::nullopt;  // ask by ranges
  // A block is asked for once its first pass, proactive redundancy
  // included, is over: something of a later block arrived, or the message
  // has been silent as long as a tail must be before it is asked for.
  std::uint32_t seen_end = st.have.empty() ? 0 : st.have.max_end();
  // Publishers send their messages in order: a later one seen means this
  // one's first pass is over.
  if (const StreamState* stream = tracker.stream(stream_of(id)); stream != nullptr && stream->newest > id.seq)
    seen_end = layout->total + 1;
  if (const auto b = coded.last_block_heard(id)) seen_end = std::max(seen_end, layout->end(*b));
  const Micros mean_gap = st.fragments > 1 ? (st.last_arrival - st.first_seen) / (st.fragments - 1) : 0;
  // Silence: the byte-range tail rule, and also long enough, at the
  // publisher's own pace and loss, that the gap is unlikely to be a run of
  // losses (a run of n has probability loss^n: n is chosen for 0.5 %).
  Micros quiet = std::max(timing.tail_timeout, 4 * mean_gap);
  if (const auto interval = reception.fragment_interval(id.publisher)) {
    const double loss = std::clamp(reception.loss(id.publisher).value_or(0.0), 0.0, 0.9);
    const double run = loss > 0.01 ? std::clamp(std::ceil(std::log(0.005) / std::log(loss)), 4.0, 50.0) : 4.0;
    quiet = std::max(quiet, static_cast<Micros>(run * static_cast<double>(*interval)));
  }
  const bool silent = now - st.last_arrival >= quiet;
  std::vector<wire::BlockNeed> out;
  auto consider = [&](std::uint32_t block) {
    if (!out.empty() && out.back().block() >= block) return;
    if (!silent && seen_end <= layout->end(block)) return;
    const std::uint32_t k = layout->symbols_in(block);
    const coding::BlockDecoder* decoder = coded.decoder(id, block);
    std::string held((k + 7) / 8, '\0');
    std::uint32_t sources = 0;
    for (std::uint32_t i = 0; i < k; ++i) {
      const std::uint32_t off = layout->source_offset(block, i);
      if (st.have.contains(off, off + layout->source_length(block, i)) || (decoder != nullptr && decoder->has_source(i))) {
        held[i / 8] = static_cast<char>(held[i / 8] | (1 << (i % 8)));
        ++sources;
      }
    }
    const std::uint32_t rank = decoder != nullptr ? static_cast<std::uint32_t>(decoder->rank()) : sources;
    if (rank >= k) return;
    std::uint32_t deficit = k - rank;
    // A block whose first pass we have not seen end may simply not be sent
    // yet: like a silent tail, it is asked for a few symbols at a time.
    if (seen_end <= layout->end(block)) deficit = std::min(deficit, kTailSymbols);
    wire::BlockNeed need;
    need.set_block(block);
    need.set_deficit(deficit);
    need.set_symbol_size(layout->stride);
    if (sources > 0) need.set_held(std::move(held));
    if (layout->block_symbols != wire::kDefaultBlockSymbols) need.set_block_symbols(layout->block_symbols);
    out.push_back(std::move(need));
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
