#include "engine/message_tracker.h"

#include <algorithm>

namespace dissem::engine {
namespace {
// A stream that jumps ahead by more than this is only tracked for its newest
// messages: bounds memory against hostile or very long gaps.
constexpr std::uint64_t kMaxGapTracked = 1024;

// Tracked without a fragment or symbol of it ever seen.
bool is_hearsay(const MessageState& st) { return !st.meta && st.fragments == 0 && !st.complete; }

}  // namespace

MessageState* MessageTracker::track(const MessageId& id, Micros now, bool data) {
  auto it = messages_.find(id);
  if (it != messages_.end()) return &it->second;
  if (incomplete_.size() >= max_tracked_) {
    // Data displaces the oldest hearsay; hearsay never displaces anything.
    bool room = false;
    while (data && !room && !hearsay_.empty()) {
      const MessageId old = std::move(hearsay_.front().second);
      hearsay_.pop_front();
      if (auto h = messages_.find(old); h != messages_.end() && is_hearsay(h->second)) {
        forget(old);
        ++hearsay_displaced_;
        room = true;
      }
    }
    if (!room) {
      if (!data) ++hearsay_refused_;
      return nullptr;
    }
  }
  auto& st = messages_[id];
  st.first_seen = now;
  if (hold_new_until_ > now) st.request.next_eligible = hold_new_until_;
  incomplete_.emplace(id, &st);
  if (!data) hearsay_.emplace_back(now, id);
  return &st;
}

void MessageTracker::forget(const MessageId& id) {
  incomplete_.erase(id);
  if (auto it = messages_.find(id); it != messages_.end()) {
    release_buffer(it->second);
    messages_.erase(it);
  }
  auto s = streams_.find(stream_of(id));
  if (s == streams_.end()) return;
  recompute_newest(s->first, s->second);
  if (s->second.newest == 0 && s->second.settled.empty()) streams_.erase(s);
}

void MessageTracker::recompute_newest(const StreamId& stream, StreamState& s) {
  std::uint64_t newest = s.data_newest;
  if (!s.settled.empty()) newest = std::max(newest, s.settled.max_end() - 1);
  // incomplete_ is ordered by (group, publisher, seq): the stream's last entry.
  auto it = incomplete_.upper_bound(MessageId{stream.group, stream.publisher, UINT64_MAX});
  if (it != incomplete_.begin()) {
    --it;
    if (it->first.publisher == stream.publisher && it->first.group == stream.group)
      newest = std::max(newest, it->first.seq);
  }
  s.newest = newest;
}

StreamState* MessageTracker::stream_for(const StreamId& stream, bool data) {
  if (auto it = streams_.find(stream); it != streams_.end()) return &it->second;
  if (!data && streams_.size() >= max_streams_) {
    ++hearsay_refused_;
    return nullptr;
  }
  return &streams_[stream];
}

std::size_t MessageTracker::expire_hearsay(Micros older_than) {
  std::size_t forgotten = 0;
  while (!hearsay_.empty() && hearsay_.front().first < older_than) {
    const MessageId id = std::move(hearsay_.front().second);
    hearsay_.pop_front();
    auto it = messages_.find(id);
    if (it == messages_.end() || !is_hearsay(it->second)) continue;
    // A gap below what the stream's data showed is real: kept.
    if (const StreamState* s = stream(stream_of(id)); s != nullptr && id.seq <= s->data_newest) continue;
    forget(id);
    ++forgotten;
  }
  return forgotten;
}

MessageState* MessageTracker::admit(const MessageMeta& meta, Micros now, FragmentOutcome& outcome) {
  // What is known of the message first, complete ones included: a
  // contradiction of verified data is counted as such, not as a duplicate.
  auto it = messages_.find(meta.id);
  if (it != messages_.end() && it->second.meta) {
    MessageState& known = it->second;
    if (known.meta->total_length != meta.total_length) {
      outcome = FragmentOutcome::LengthConflict;
      ++known.conflicts;
      return nullptr;
    }
    // A message cached before digests existed learns its digest here.
    if (known.meta->digest == 0) {
      known.meta->digest = meta.digest;
    } else if (meta.digest != 0 && known.meta->digest != meta.digest) {
      outcome = FragmentOutcome::DigestConflict;
      ++known.conflicts;
      return nullptr;
    }
  }
  if (settled(meta.id)) {
    outcome = FragmentOutcome::Settled;
    return nullptr;
  }
  MessageState* st = it != messages_.end() ? &it->second : track(meta.id, now, true);
  if (st == nullptr) {
    outcome = FragmentOutcome::Overloaded;
    return nullptr;
  }
  if (st->complete) {
    outcome = FragmentOutcome::Duplicate;
    return nullptr;
  }
  if (!st->meta) {
    // The message's first data: what the stream's data has shown grows.
    st->meta = std::make_unique<MessageMeta>(meta);
    StreamState& s = *stream_for(stream_of(meta.id), true);
    s.data_newest = std::max(s.data_newest, meta.id.seq);
  }
  return st;
}

FragmentOutcome MessageTracker::on_fragment(const MessageMeta& meta, std::uint32_t offset,
                                            std::uint32_t length, Micros now, const std::uint8_t* payload,
                                            bool buffered) {
  FragmentOutcome outcome = FragmentOutcome::New;
  MessageState* st = admit(meta, now, outcome);
  if (st == nullptr) return outcome;
  if (st->have.add(offset, offset + length) == 0) return FragmentOutcome::Duplicate;
  if (buffered && payload != nullptr) {
    if (st->buffer.empty() && st->have.covered() == length &&
        buffered_bytes_ + meta.total_length <= buffer_budget_) {
      st->buffer.resize(meta.total_length);  // only from the first fragment: no gaps to back-fill
      buffered_bytes_ += meta.total_length;
    }
    if (!st->buffer.empty()) std::copy(payload, payload + length, st->buffer.begin() + offset);
  }
  if (st->fragments == 0) st->first_seen = now;
  st->last_arrival = now;
  ++st->fragments;
  // New data resets this item's backoff: the sender is active, ask again soon.
  st->request.level = 0;
  st->request.next_eligible = 0;
  if (st->have.covered() == meta.total_length) {
    mark_complete(meta.id, *st);
    return FragmentOutcome::Completed;
  }
  return FragmentOutcome::New;
}

FragmentOutcome MessageTracker::on_symbol(const MessageMeta& meta, Micros now, bool first_pass) {
  FragmentOutcome outcome = FragmentOutcome::New;
  MessageState* st = admit(meta, now, outcome);
  if (st == nullptr) return outcome;
  if (first_pass || st->fragments == 0) {
    if (st->fragments == 0) st->first_seen = now;
    st->last_arrival = now;
    ++st->fragments;
  }
  return FragmentOutcome::New;
}

void MessageTracker::note_progress(const MessageId& id) {
  auto it = messages_.find(id);
  if (it == messages_.end()) return;
  it->second.request.level = 0;
  it->second.request.next_eligible = 0;
}

void MessageTracker::mark_complete(const MessageId& id, MessageState& st) {
  st.complete = true;
  st.have.clear();
  incomplete_.erase(id);
  auto& s = streams_[stream_of(id)];
  s.settled.add(id.seq, id.seq + 1);
  s.newest = std::max(s.newest, id.seq);
}

void MessageTracker::learn_newest(const StreamId& stream, std::uint64_t seq, bool track_gaps,
                                  std::uint32_t history, bool inclusive, Micros now) {
  StreamState* sp = stream_for(stream, !inclusive);
  if (sp == nullptr) return;
  auto& s = *sp;
  const std::uint64_t last = inclusive ? seq : seq - 1;
  if (track_gaps && s.baseline == 0) {
    s.baseline = seq > history ? seq - history : 1;
    s.newest = std::max<std::uint64_t>(s.newest, s.baseline - 1);
  }
  // (newest at the top of the range: nothing can be newer, and newest + 1 would wrap.)
  if (track_gaps && last >= s.baseline && last > 0 && s.newest != UINT64_MAX) {
    std::uint64_t from = std::max(s.baseline, s.newest + 1);
    if (last >= from && last - from >= kMaxGapTracked) from = last - kMaxGapTracked + 1;
    // Up to `last` inclusive, written so that a claim of the largest number cannot wrap to 0.
    for (std::uint64_t q = from; last >= from; ++q) {
      // Full (hearsay is refused): the rest would be refused too.
      if (!s.settled.contains(q) && track(MessageId{stream.group, stream.publisher, q}, now) == nullptr) break;
      if (q == last) break;
    }
  }
  s.newest = std::max(s.newest, seq);
}

void MessageTracker::extend_history(const StreamId& stream, std::uint32_t count, Micros now) {
  auto it = streams_.find(stream);
  if (it == streams_.end() || it->second.baseline == 0 || count == 0) return;
  auto& s = it->second;
  const std::uint64_t old_base = s.baseline;
  const std::uint64_t new_base = old_base > count ? old_base - count : 1;
  for (std::uint64_t q = new_base; q < old_base && q - new_base < kMaxGapTracked; ++q) {
    if (!s.settled.contains(q) && track(MessageId{stream.group, stream.publisher, q}, now) == nullptr) break;
  }
  s.baseline = new_base;
}

void MessageTracker::want_from(const StreamId& stream, std::uint64_t from, Micros now) {
  auto it = streams_.find(stream);
  if (it == streams_.end() || from == 0) return;
  auto& s = it->second;
  s.baseline = s.baseline == 0 ? from : std::min(s.baseline, from);
  if (s.newest >= from && s.newest - from >= kMaxGapTracked) from = s.newest - kMaxGapTracked + 1;
  for (std::uint64_t q = from; s.newest >= from; ++q) {  // up to newest inclusive, without wrapping
    if (!s.settled.contains(q) && track(MessageId{stream.group, stream.publisher, q}, now) == nullptr) break;
    if (q == s.newest) break;
  }
}

void MessageTracker::learn_available(const StreamId& stream,
                                     const std::vector<std::pair<std::uint64_t, std::uint64_t>>& held, Micros now,
                                     Micros not_before) {
  if (held.empty()) return;
  StreamState* sp = stream_for(stream, false);
  if (sp == nullptr) return;
  auto& s = *sp;
  std::uint64_t added = 0;
  for (const auto& [begin, end] : held) {
    if (end <= begin) continue;
    for (std::uint64_t q = begin; q < end && added < kMaxGapTracked; ++q) {
      // Settled stretches are skipped whole: a peer's claim to hold a long
      // one costs a step, not a step per number.
      if (const std::uint64_t next = s.settled.next_absent(q); next != q) {
        q = next - 1;
        continue;
      }
      const MessageId id{stream.group, stream.publisher, q};
      if (auto it = messages_.find(id); it != messages_.end()) {
        if (!it->second.complete)
          it->second.request.next_eligible = std::max(it->second.request.next_eligible, not_before);
        continue;
      }
      MessageState* st = track(id, now);
      if (st == nullptr) return;
      st->request.next_eligible = std::max(st->request.next_eligible, not_before);
      ++added;
    }
    s.newest = std::max(s.newest, end - 1);
  }
  if (s.baseline == 0 || s.baseline > held.front().first) s.baseline = held.front().first;
}

std::vector<std::uint8_t> MessageTracker::take_buffer(const MessageId& id) {
  auto it = messages_.find(id);
  if (it == messages_.end() || !it->second.complete) return {};
  buffered_bytes_ -= it->second.buffer.size();
  return std::move(it->second.buffer);
}

void MessageTracker::release_buffer(MessageState& st) {
  buffered_bytes_ -= st.buffer.size();
  st.buffer = {};
}

void MessageTracker::settle(const MessageId& id) {
  incomplete_.erase(id);
  if (auto it = messages_.find(id); it != messages_.end()) release_buffer(it->second);
  messages_.erase(id);
  streams_[stream_of(id)].settled.add(id.seq, id.seq + 1);
}

std::vector<MessageId> MessageTracker::settle_below(const StreamId& stream, std::uint64_t end) {
  std::vector<MessageId> ended;
  if (end <= 1) return ended;
  for (auto it = incomplete_.lower_bound(MessageId{stream.group, stream.publisher, 0});
       it != incomplete_.end() && it->first.group == stream.group && it->first.publisher == stream.publisher &&
       it->first.seq < end;
       ++it)
    ended.push_back(it->first);
  for (const auto& id : ended) settle(id);
  if (auto s = streams_.find(stream); s != streams_.end()) s->second.settled.add(1, end);
  return ended;
}

void MessageTracker::unsettle(const StreamId& stream, std::uint64_t begin, std::uint64_t end, Micros now) {
  auto it = streams_.find(stream);
  if (it == streams_.end() || begin >= end) return;
  StreamState& s = it->second;
  end = std::min(end, begin + kMaxGapTracked);
  for (std::uint64_t q = begin; q < end; ++q) {
    if (!s.settled.remove(q)) continue;
    if (s.baseline != 0 && q >= s.baseline && q <= s.newest &&
        track(MessageId{stream.group, stream.publisher, q}, now) == nullptr)
      break;
  }
}

void MessageTracker::reopen(const MessageId& id) {
  auto it = messages_.find(id);
  if (it == messages_.end()) return;
  MessageState& st = it->second;
  release_buffer(st);
  const Micros first_seen = st.first_seen;
  st = MessageState{};
  st.first_seen = first_seen;
  incomplete_.emplace(id, &st);
  if (auto s = streams_.find(stream_of(id)); s != streams_.end()) s->second.settled.remove(id.seq);
}

void MessageTracker::restore(const MessageMeta& meta, bool complete,
                             const std::vector<std::pair<std::uint32_t, std::uint32_t>>& fragments,
                             Micros first_seen) {
  auto& st = messages_[meta.id];
  st.meta = std::make_unique<MessageMeta>(meta);
  st.first_seen = first_seen;
  auto& s = streams_[stream_of(meta.id)];
  s.newest = std::max(s.newest, meta.id.seq);
  // After a restart we do not fetch anything older than what we held.
  s.baseline = s.baseline == 0 ? meta.id.seq : std::min(s.baseline, meta.id.seq);
  if (complete) {
    mark_complete(meta.id, st);
    return;
  }
  for (const auto& [off, len] : fragments) st.have.add(off, off + len);
  incomplete_.emplace(meta.id, &st);
}

std::size_t MessageTracker::cut_back_to(const std::vector<MessageRecord>& cached) {
  std::unordered_map<MessageId, const MessageRecord*, MessageIdHash> by_id;
  by_id.reserve(cached.size());
  for (const MessageRecord& rec : cached) by_id.emplace(rec.meta.id, &rec);
  std::size_t cut = 0;
  for (auto& [id, st] : messages_) {
    if (!st.meta) continue;  // hearsay: nothing was held
    const auto it = by_id.find(id);
    const MessageRecord* rec = it == by_id.end() ? nullptr : it->second;
    if (rec != nullptr && rec->complete) continue;  // held whole, as the tracker believes or better
    ByteRanges held;
    if (rec != nullptr)
      for (const auto& [off, len] : rec->fragments) held.add(off, off + len);
    if (!st.complete && held.covered() == st.have.covered()) continue;
    if (st.complete) {
      st.complete = false;
      incomplete_.emplace(id, &st);
      if (auto s = streams_.find(stream_of(id)); s != streams_.end()) s->second.settled.remove(id.seq);
    }
    st.have = std::move(held);
    st.request = RequestState{};
    ++cut;
  }
  return cut;
}

MessageState* MessageTracker::find(const MessageId& id) {
  auto it = messages_.find(id);
  return it == messages_.end() ? nullptr : &it->second;
}

const MessageState* MessageTracker::find(const MessageId& id) const {
  auto it = messages_.find(id);
  return it == messages_.end() ? nullptr : &it->second;
}

StreamState* MessageTracker::stream(const StreamId& s) {
  auto it = streams_.find(s);
  return it == streams_.end() ? nullptr : &it->second;
}

const StreamState* MessageTracker::stream(const StreamId& s) const {
  auto it = streams_.find(s);
  return it == streams_.end() ? nullptr : &it->second;
}

bool MessageTracker::settled(const MessageId& id) const {
  auto it = streams_.find(stream_of(id));
  return it != streams_.end() && it->second.settled.contains(id.seq);
}

void MessageTracker::reset_backoff_all(Micros not_before) {
  for (auto& [id, st] : incomplete_) {
    st->request.level = 0;
    st->request.next_eligible = not_before;
  }
}

MissingRanges missing_ranges(const MessageState& st, Micros now, Micros tail_timeout, std::uint32_t tail_chunk) {
  MissingRanges out;
  if (!st.meta || st.have.empty()) {
    out.whole = true;
    return out;
  }
  out.ranges = st.have.gaps(0, st.have.max_end());
  const std::uint32_t total = st.meta->total_length;
  if (st.have.max_end() < total) {
    const Micros mean_gap = st.fragments > 1 ? (st.last_arrival - st.first_seen) / (st.fragments - 1) : 0;
    if (now - st.last_arrival >= std::max(tail_timeout, 4 * mean_gap)) {
      const std::uint32_t end = total - st.have.max_end() > tail_chunk ? st.have.max_end() + tail_chunk : total;
      out.ranges.emplace_back(st.have.max_end(), end);
    }
  }
  return out;
}

}  // namespace dissem::engine
