// Window coding across the small messages of a stream (a sliding-window
// code, as RFC 8681 and Tetrys): receiving window symbols and recovering
// lost messages whole from them, generating them (the publisher's proactive
// redundancy, answers to window requests), and scheduling those answers.
#include <algorithm>

#include "coding/coefficients.h"
#include "coding/linear_combination.h"
#include "engine/fragmenter.h"
#include "engine/node_impl.h"
#include "engine/window_image.h"

namespace dissem::engine {
namespace {

constexpr std::size_t kImagesKept = 256;
// Equations older than this many messages behind the newest one heard are dropped.
constexpr std::uint64_t kEquationHorizon = 4 * wire::kMaxWindowMessages;

bool bit_set(const std::string& bits, std::uint32_t i) {
  return i / 8 < bits.size() && (static_cast<std::uint8_t>(bits[i / 8]) >> (i % 8) & 1) != 0;
}

TrafficKind kind_of(const wire::WindowSymbol& w) {
  if (w.repair()) return TrafficKind::Repair;
  return w.hops() > 0 ? TrafficKind::Forward : TrafficKind::Data;
}

}  // namespace

MessageId window_key(const StreamId& stream) { return MessageId{stream.group, stream.publisher, 0}; }

bool NodeImpl::window_coding() const { return config.coding && config.window_messages > 0; }

const std::vector<std::uint8_t>* NodeImpl::image_of(const MessageId& id, Micros now) {
  if (auto it = coder_cache.window_images.find(id); it != coder_cache.window_images.end()) return &it->second;
  const MessageState* st = tracker.find(id);
  if (st == nullptr || !st->complete || !st->meta || st->meta->expired_at(now) ||
      !window_eligible(*st->meta, config.payload_size))
    return nullptr;
  auto fragments = store->read_fragments(id, 0, st->meta->total_length);
  if (fragments.size() != 1 || fragments.front().data.size() != st->meta->total_length) return nullptr;
  if (coder_cache.window_image_order.size() >= kImagesKept) {
    coder_cache.window_images.erase(coder_cache.window_image_order.front());
    coder_cache.window_image_order.pop_front();
  }
  coder_cache.window_image_order.push_back(id);
  return &(coder_cache.window_images[id] = window_image(*st->meta, fragments.front().data));
}

std::optional<std::vector<std::uint8_t>> NodeImpl::encode_window_symbol(const StreamId& stream, std::uint64_t first,
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
  const auto seed = static_cast<std::uint32_t>(rng.next());
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
  ++stats.coded_generated;
  block_memory.record(window_key(stream), 0, now);
  return wire::encode(out);
}

std::optional<std::vector<std::uint8_t>> NodeImpl::proactive_window_symbol(const MessageId& last, Micros now) {
  // The window reaches back to the message after the symbol before the
  // previous one (so every message is in two proactive symbols, however
  // sparse the redundancy), and at least window_messages back; at most 64.
  auto& marks = coder_cache.proactive_marks[last.group];
  std::uint64_t span = config.window_messages;
  if (marks[0] != 0 && marks[0] < last.seq) span = std::max(span, last.seq - marks[0]);
  span = std::min<std::uint64_t>({span, wire::kMaxWindowMessages, last.seq});
  if (marks[1] != last.seq) marks = {marks[1], last.seq};
  return encode_window_symbol(stream_of(last), last.seq - span + 1, static_cast<std::uint32_t>(span), false, now);
}

namespace {

// The messages a window symbol combines: all of them, those held here, and
// how many are not.
struct WindowMembers {
  std::vector<std::uint64_t> seqs;
  std::vector<std::uint64_t> held;
  std::size_t unknown = 0;
};

// nullopt, counted, when the symbol contradicts what is known here of a
// message it names.
std::optional<WindowMembers> window_members(NodeImpl& n, const wire::WindowSymbol& w, const StreamId& stream,
                                            Micros now) {
  WindowMembers m;
  for (std::uint32_t i = 0; i < w.count(); ++i) {
    const std::uint64_t seq = w.first_seq() + i;
    if (bit_set(w.excluded(), i)) {
      // The publisher's first pass leaves out only what does not take part
      // (a server leaves out what it does not hold, too).
      if (!w.repair() && w.hops() == 0) n.coded_streams.note_excluded(stream, seq);
      continue;
    }
    m.seqs.push_back(seq);
    const MessageId id{stream.group, stream.publisher, seq};
    if (n.image_of(id, now) != nullptr) {
      m.held.push_back(seq);
      continue;
    }
    const MessageState* st = n.tracker.find(id);
    // A message known here not to be small cannot be in the combination:
    // the symbol contradicts what its publisher sent (buggy or hostile).
    if (st != nullptr && st->meta && !window_eligible(*st->meta, n.config.payload_size) &&
        st->meta->total_length > w.payload().size()) {
      ++n.stats.malformed[static_cast<std::size_t>(DecodeError::BadLength)];
      return std::nullopt;
    }
    ++m.unknown;
  }
  return m;
}

}  // namespace

void NodeImpl::on_window_symbol(const wire::WindowSymbol& w, std::size_t size, Micros now) {
  stats.received[static_cast<std::size_t>(kind_of(w))].add(size);
  ++stats.coded_received;
  const StreamId stream{w.group(), w.publisher()};
  block_memory.record(window_key(stream), 0, now);
  if (!window_coding()) {
    ++stats.coded_ignored;
    return;
  }
  if (w.publisher() == config.node_id) return;
  const bool subscribed = subscribers.subscriptions().any(w.group());
  if (!subscribed && !config.cache_unsubscribed) return;
  const std::uint64_t last = w.first_seq() + w.count() - 1;
  learn_stream(stream, last, 0, true, now);
  coded_streams.note_small(stream, true);

  const auto members = window_members(*this, w, stream, now);
  if (!members) return;
  const auto& [seqs, held, unknown] = *members;
  if (unknown == 0) {
    ++stats.coded_redundant;
    return;
  }
  coding::WindowDecoder* decoder = coded_streams.open(stream, w.payload().size() + seqs.size() * 9 + 64);
  if (decoder == nullptr) {
    ++stats.coded_dropped_memory;
    return;
  }
  std::vector<std::uint8_t> coefs(seqs.size());
  coding::coefficients_from_seed(w.seed(), coefs);
  const auto* data = reinterpret_cast<const std::uint8_t*>(w.payload().data());
  decoder->add(seqs, std::move(coefs), std::vector<std::uint8_t>(data, data + w.payload().size()));
  for (const auto seq : held)
    decoder->on_source(seq, *image_of(MessageId{stream.group, stream.publisher, seq}, now));
  if (last > kEquationHorizon) decoder->forget_before(last - kEquationHorizon);
  ++stats.coded_innovative;
  // Progress on the messages it involves: their requests back off from the
  // start again (the answers in flight are still awaited).
  for (const auto seq : seqs)
    if (MessageState* st = tracker.find(MessageId{stream.group, stream.publisher, seq}); st != nullptr && !st->complete)
      st->request.level = 0;
  solve_window(stream, now);
}

void NodeImpl::solve_window(const StreamId& stream, Micros now) {
  coding::WindowDecoder* decoder = coded_streams.decoder(stream);
  if (decoder == nullptr) return;
  auto recovered = decoder->solve();
  coded_streams.update_memory(stream);
  for (const auto& r : recovered) {
    const auto d = parse_window_image(r.image, limits);
    if (!d || d->group() != stream.group || d->publisher() != stream.publisher || d->seq() != r.seq) {
      ++stats.malformed[static_cast<std::size_t>(DecodeError::BadRange)];  // a polluted symbol
      continue;
    }
    const MessageMeta meta = meta_of(*d, now);
    if (meta.expired_at(now)) continue;
    ++stats.fragments_decoded;
    const auto* payload = reinterpret_cast<const std::uint8_t*>(d->payload().data());
    accept_fragment(meta, 0, std::span(payload, d->payload().size()), subscribers.subscriptions().any(stream.group),
                    ArrivedFrom{0, 0, true, true, 0}, now);
  }
}

void NodeImpl::on_window_source(const MessageMeta& meta, Micros now) {
  if (!window_coding() || meta.id.publisher == config.node_id) return;
  const StreamId stream = stream_of(meta.id);
  const bool small = window_eligible(meta, config.payload_size);
  if (const StreamState* s = tracker.stream(stream); s == nullptr || meta.id.seq >= s->newest)
    coded_streams.note_small(stream, small);
  coding::WindowDecoder* decoder = coded_streams.decoder(stream);
  if (decoder == nullptr || !decoder->involves(meta.id.seq)) return;
  const auto* image = image_of(meta.id, now);
  if (image == nullptr) return;
  decoder->on_source(meta.id.seq, *image);
  solve_window(stream, now);
}

std::uint32_t NodeImpl::window_symbol_size(const StreamId& stream, const wire::WindowNeed& need, Micros now) {
  std::size_t largest = 0;
  for (std::uint32_t i = 0; i < need.count() && i < wire::kMaxWindowMessages; ++i) {
    if (bit_set(need.held(), i)) continue;
    if (const auto* image = image_of(MessageId{stream.group, stream.publisher, need.first_seq() + i}, now))
      largest = std::max(largest, image->size());
  }
  return static_cast<std::uint32_t>(largest);
}

void NodeImpl::on_window_request(const StreamId& stream, const wire::WindowNeed& need, Micros now) {
  if (!window_coding()) return;
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
  const Micros since = now - timing.in_flight_slack;
  for (auto& t : queues.windows_pending) {
    if (t.stream != stream) continue;
    const std::uint64_t first = std::min(t.first, need.first_seq());
    const std::uint64_t end = std::max(t.first + t.count, last + 1);
    if (end - first > wire::kMaxWindowMessages) continue;
    t.first = first;
    t.count = static_cast<std::uint32_t>(end - first);
    t.needed = std::max(t.needed, needed);
    return;
  }
  if (queues.windows_pending.size() >= config.max_queued_datagrams) return;
  // A node holding only part of what the requester lacks answers after
  // those holding all of it.
  Micros delay = rng.uniform_int(0, timing.serve_delay_max);
  if (useful < lacked) delay += timing.serve_delay_max;
  queues.windows_pending.push_back(WindowTask{stream, need.first_seq(), need.count(), since, needed, 0, now + delay});
}

void NodeImpl::release_due_windows(Micros now) {
  for (auto it = queues.windows_pending.begin(); it != queues.windows_pending.end();) {
    if (it->due > now) {
      ++it;
      continue;
    }
    WindowTask t = *it;
    it = queues.windows_pending.erase(it);
    const std::uint32_t heard = block_memory.count_since(window_key(t.stream), 0, t.since, now);
    if (config.use_traffic_memory && heard >= t.needed) {
      ++stats.repairs_suppressed_ntm;
      continue;
    }
    t.remaining = config.use_traffic_memory ? t.needed - heard : t.needed;
    if (queues.windows.size() >= config.max_queued_datagrams) continue;
    stats.repairs_queued += t.remaining;
    // At the priority of the window's newest message.
    const std::uint32_t level = priority_of(MessageId{t.stream.group, t.stream.publisher, t.first + t.count - 1});
    queues.windows.push(level, std::move(t));
  }
}

std::optional<Micros> NodeImpl::next_window_due() const {
  std::optional<Micros> t;
  for (const auto& w : queues.windows_pending) t = t ? std::min(*t, w.due) : w.due;
  return t;
}

std::optional<std::vector<std::uint8_t>> NodeImpl::next_window_repair(std::uint32_t level, Micros now) {
  WindowTask t = std::move(queues.windows.front(level));
  queues.windows.pop_front(level);
  if (config.use_traffic_memory && block_memory.count_since(window_key(t.stream), 0, t.since, now) >= t.needed) {
    ++stats.repairs_suppressed_ntm;
    return std::nullopt;
  }
  auto bytes = encode_window_symbol(t.stream, t.first, t.count, true, now);
  if (!bytes) return std::nullopt;
  if (--t.remaining > 0) queues.windows.push(level, std::move(t));
  return bytes;
}

}  // namespace dissem::engine
