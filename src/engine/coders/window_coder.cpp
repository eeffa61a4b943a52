#include "engine/coders/window_coder.h"

#include <algorithm>

#include "coding/coefficients.h"
#include "coding/linear_combination.h"
#include "engine/fragmenter.h"
#include "engine/coders/window_image.h"

namespace dissem::engine {
namespace {

constexpr std::size_t kImagesKept = 256;
// Equations older than this many messages behind the newest one heard are dropped.
constexpr std::uint64_t kEquationHorizon = 4 * wire::kMaxWindowMessages;

bool bit_set(const std::string& bits, std::uint32_t i) {
  return i / 8 < bits.size() && (static_cast<std::uint8_t>(bits[i / 8]) >> (i % 8) & 1) != 0;
}

// The messages a window symbol combines: all of them, those held here, and
// how many are not.
struct WindowMembers {
  std::vector<std::uint64_t> seqs;
  std::vector<std::uint64_t> held;
  std::size_t unknown = 0;
};

}  // namespace

MessageId window_key(const StreamId& stream) { return MessageId{stream.group, stream.publisher, 0}; }

WindowCoder::WindowCoder(NodeContext& node, WindowCoderSources sources)
    : node_(node), from_(sources), streams_(node.config.coding_memory / 4) {}

bool WindowCoder::enabled() const { return node_.config.coding && node_.config.window_messages > 0; }

bool WindowCoder::member(const MessageId& id, const MessageState& st) const {
  const StreamId stream = stream_of(id);
  return !st.complete && !st.meta && streams_.small(stream) && !streams_.excluded(stream, id.seq);
}

const std::vector<std::uint8_t>* WindowCoder::image_of(const MessageId& id, Micros now) {
  if (auto it = images_.find(id); it != images_.end()) return &it->second;
  const MessageState* st = node_.tracker.find(id);
  if (st == nullptr || !st->complete || !st->meta || st->meta->expired_at(node_.wall(now)) ||
      !window_eligible(*st->meta, node_.config.payload_size))
    return nullptr;
  auto fragments = node_.store->read_fragments(id, 0, st->meta->total_length);
  if (fragments.size() != 1 || fragments.front().data.size() != st->meta->total_length) return nullptr;
  if (image_order_.size() >= kImagesKept) {
    images_.erase(image_order_.front());
    image_order_.pop_front();
  }
  image_order_.push_back(id);
  return &(images_[id] = window_image(*st->meta, fragments.front().data));
}

std::optional<std::vector<std::uint8_t>> WindowCoder::encode_symbol(const StreamId& stream, std::uint64_t first,
                                                                    std::uint32_t count, bool repair, Micros now) {
  std::vector<const std::vector<std::uint8_t>*> images;
  std::string excluded((count + 7) / 8, '\0');
  std::size_t size = 0;
  for (std::uint32_t i = 0; i < count; ++i) {
    const auto* image = image_of(MessageId{stream.group, stream.publisher, first + i}, now);
    if (image == nullptr) {
      excluded[i / 8] = static_cast<char>(excluded[i / 8] | (1 << (i % 8)));
      continue;
    }
    images.push_back(image);
    size = std::max(size, image->size());
  }
  if (images.empty()) return std::nullopt;
  while (!excluded.empty() && excluded.back() == '\0') excluded.pop_back();
  wire::WindowSymbol out;
  out.set_group(stream.group);
  out.set_publisher(stream.publisher);
  out.set_first_seq(first);
  out.set_count(count);
  out.set_repair(repair);
  if (!excluded.empty()) out.set_excluded(std::move(excluded));
  const auto seed = static_cast<std::uint32_t>(node_.rng.next());
  out.set_seed(seed);
  std::vector<std::uint8_t> coefs(images.size());
  coding::coefficients_from_seed(seed, coefs);
  // Every image zero-padded to the longest.
  std::vector<std::vector<std::uint8_t>> padded;
  std::vector<const std::uint8_t*> rows;
  for (const auto* image : images) {
    if (image->size() == size) {
      rows.push_back(image->data());
      continue;
    }
    padded.emplace_back(size, 0);
    std::copy(image->begin(), image->end(), padded.back().begin());
    rows.push_back(padded.back().data());
  }
  std::string* payload = out.mutable_payload();
  payload->resize(size);
  coding::combine(rows, coefs, size, reinterpret_cast<std::uint8_t*>(payload->data()));
  ++node_.stats.coded_generated;
  from_.block_memory.record(window_key(stream), 0, now);
  return wire::encode(out);
}

std::optional<std::vector<std::uint8_t>> WindowCoder::proactive_symbol(const MessageId& last, Micros now) {
  // The window reaches back to the message after the symbol before the
  // previous one (so every message is in two proactive symbols, however
  // sparse the redundancy), and at least window_messages back; at most 64.
  auto& marks = proactive_marks_[last.group];
  std::uint64_t span = node_.config.window_messages;
  if (marks[0] != 0 && marks[0] < last.seq) span = std::max(span, last.seq - marks[0]);
  span = std::min<std::uint64_t>({span, wire::kMaxWindowMessages, last.seq});
  if (marks[1] != last.seq) marks = {marks[1], last.seq};
  return encode_symbol(stream_of(last), last.seq - span + 1, static_cast<std::uint32_t>(span), false, now);
}

std::vector<WindowCoder::Recovered> WindowCoder::add_symbol(const wire::WindowSymbol& w, Micros now) {
  const StreamId stream{w.group(), w.publisher()};
  streams_.note_small(stream, true);
  WindowMembers m;
  for (std::uint32_t i = 0; i < w.count(); ++i) {
    const std::uint64_t seq = w.first_seq() + i;
    if (bit_set(w.excluded(), i)) {
      // The publisher's first pass leaves out only what does not take part
      // (a server leaves out what it does not hold, too).
      if (!w.repair() && w.hops() == 0) streams_.note_excluded(stream, seq);
      continue;
    }
    m.seqs.push_back(seq);
    const MessageId id{stream.group, stream.publisher, seq};
    if (image_of(id, now) != nullptr) {
      m.held.push_back(seq);
      continue;
    }
    const MessageState* st = node_.tracker.find(id);
    // A message known here not to be small cannot be in the combination:
    // the symbol contradicts what its publisher sent (buggy or hostile).
    if (st != nullptr && st->meta && !window_eligible(*st->meta, node_.config.payload_size) &&
        st->meta->total_length > w.payload().size()) {
      ++node_.stats.malformed[static_cast<std::size_t>(DecodeError::BadLength)];
      return {};
    }
    ++m.unknown;
  }
  if (m.unknown == 0) {
    ++node_.stats.coded_redundant;
    return {};
  }
  coding::WindowDecoder* decoder = streams_.open(stream, w.payload().size() + m.seqs.size() * 9 + 64);
  if (decoder == nullptr) {
    ++node_.stats.coded_dropped_memory;
    return {};
  }
  std::vector<std::uint8_t> coefs(m.seqs.size());
  coding::coefficients_from_seed(w.seed(), coefs);
  const auto* data = reinterpret_cast<const std::uint8_t*>(w.payload().data());
  decoder->add(m.seqs, std::move(coefs), std::vector<std::uint8_t>(data, data + w.payload().size()));
  for (const auto seq : m.held)
    decoder->on_source(seq, *image_of(MessageId{stream.group, stream.publisher, seq}, now));
  const std::uint64_t last = w.first_seq() + w.count() - 1;
  if (last > kEquationHorizon) decoder->forget_before(last - kEquationHorizon);
  ++node_.stats.coded_innovative;
  // Progress on the messages it involves: their requests back off from the
  // start again (the answers in flight are still awaited).
  for (const auto seq : m.seqs)
    if (MessageState* st = node_.tracker.find(MessageId{stream.group, stream.publisher, seq});
        st != nullptr && !st->complete)
      st->request.level = 0;
  return solve(stream, now);
}

std::vector<WindowCoder::Recovered> WindowCoder::solve(const StreamId& stream, Micros now) {
  std::vector<Recovered> out;
  coding::WindowDecoder* decoder = streams_.decoder(stream);
  if (decoder == nullptr) return out;
  auto recovered = decoder->solve();
  streams_.update_memory(stream);
  const Micros wall = node_.wall(now);
  for (const auto& r : recovered) {
    const auto d = parse_window_image(r.image, from_.limits);
    if (!d || d->group() != stream.group || d->publisher() != stream.publisher || d->seq() != r.seq) {
      ++node_.stats.malformed[static_cast<std::size_t>(DecodeError::BadRange)];  // a polluted symbol
      continue;
    }
    MessageMeta meta = meta_of(*d, wall);
    if (meta.expired_at(wall)) continue;
    const auto* payload = reinterpret_cast<const std::uint8_t*>(d->payload().data());
    out.push_back(Recovered{std::move(meta), std::vector<std::uint8_t>(payload, payload + d->payload().size())});
  }
  return out;
}

std::vector<WindowCoder::Recovered> WindowCoder::on_source(const MessageMeta& meta, Micros now) {
  if (!enabled() || meta.id.publisher == node_.config.node_id) return {};
  const StreamId stream = stream_of(meta.id);
  const bool small = window_eligible(meta, node_.config.payload_size);
  if (const StreamState* s = node_.tracker.stream(stream); s == nullptr || meta.id.seq >= s->newest)
    streams_.note_small(stream, small);
  coding::WindowDecoder* decoder = streams_.decoder(stream);
  if (decoder == nullptr || !decoder->involves(meta.id.seq)) return {};
  const auto* image = image_of(meta.id, now);
  if (image == nullptr) return {};
  decoder->on_source(meta.id.seq, *image);
  return solve(stream, now);
}

std::uint32_t WindowCoder::symbol_size(const StreamId& stream, const wire::WindowNeed& need, Micros now) {
  std::size_t largest = 0;
  for (std::uint32_t i = 0; i < need.count() && i < wire::kMaxWindowMessages; ++i) {
    if (bit_set(need.held(), i)) continue;
    if (const auto* image = image_of(MessageId{stream.group, stream.publisher, need.first_seq() + i}, now))
      largest = std::max(largest, image->size());
  }
  return static_cast<std::uint32_t>(largest);
}

void WindowCoder::on_request(const StreamId& stream, const wire::WindowNeed& need, Micros now) {
  if (!enabled()) return;
  // What this node can help with: the messages the requester lacks that it holds.
  std::uint32_t lacked = 0;
  std::uint32_t useful = 0;
  for (std::uint32_t i = 0; i < need.count(); ++i) {
    if (bit_set(need.held(), i)) continue;
    ++lacked;
    if (image_of(MessageId{stream.group, stream.publisher, need.first_seq() + i}, now) != nullptr) ++useful;
  }
  if (useful == 0) return;
  const std::uint32_t needed = std::min(need.deficit(), useful);
  const std::uint64_t last = need.first_seq() + need.count() - 1;
  const Micros since = now - from_.timing.in_flight_slack;
  auto& pending = from_.queues.windows_pending;
  for (auto& t : pending) {
    if (t.stream != stream) continue;
    const std::uint64_t first = std::min(t.first, need.first_seq());
    const std::uint64_t end = std::max(t.first + t.count, last + 1);
    if (end - first > wire::kMaxWindowMessages) continue;
    t.first = first;
    t.count = static_cast<std::uint32_t>(end - first);
    t.needed = std::max(t.needed, needed);
    return;
  }
  if (pending.size() >= node_.config.max_queued_datagrams) return;
  // A node holding only part of what the requester lacks answers after
  // those holding all of it.
  Micros delay = node_.rng.uniform_int(0, from_.timing.serve_delay_max);
  if (useful < lacked) delay += from_.timing.serve_delay_max;
  pending.push_back(WindowTask{stream, need.first_seq(), need.count(), since, needed, 0, now + delay});
}

void WindowCoder::release_due(Micros now) {
  const EngineConfig& config = node_.config;
  auto& pending = from_.queues.windows_pending;
  for (auto it = pending.begin(); it != pending.end();) {
    if (it->due > now) {
      ++it;
      continue;
    }
    WindowTask t = *it;
    it = pending.erase(it);
    const std::uint32_t heard = from_.block_memory.count_since(window_key(t.stream), 0, t.since, now);
    if (config.use_traffic_memory && heard >= t.needed) {
      ++node_.stats.repairs_suppressed_ntm;
      continue;
    }
    t.remaining = config.use_traffic_memory ? t.needed - heard : t.needed;
    if (from_.queues.windows.size() >= config.max_queued_datagrams) continue;
    node_.stats.repairs_queued += t.remaining;
    // At the priority of the window's newest message.
    const std::uint32_t level =
        node_.tracker.priority_of(MessageId{t.stream.group, t.stream.publisher, t.first + t.count - 1});
    from_.queues.windows.push(level, std::move(t));
  }
}

std::optional<Micros> WindowCoder::next_due() const {
  std::optional<Micros> t;
  for (const auto& w : from_.queues.windows_pending) t = t ? std::min(*t, w.due) : w.due;
  return t;
}

std::optional<std::vector<std::uint8_t>> WindowCoder::next_repair(std::uint32_t level, Micros now) {
  auto& windows = from_.queues.windows;
  WindowTask t = std::move(windows.front(level));
  windows.pop_front(level);
  if (node_.config.use_traffic_memory &&
      from_.block_memory.count_since(window_key(t.stream), 0, t.since, now) >= t.needed) {
    ++node_.stats.repairs_suppressed_ntm;
    return std::nullopt;
  }
  auto bytes = encode_symbol(t.stream, t.first, t.count, true, now);
  if (!bytes) return std::nullopt;
  if (--t.remaining > 0) windows.push(level, std::move(t));
  return bytes;
}

}  // namespace dissem::engine
