// What this node knows about every message and every stream: reassembly of
// partial messages (byte range sets), which sequence numbers are settled, and
// which messages are known to be missing (from sequence gaps and beacons).
//
// A message is "settled" in its stream once it is complete here, or given up
// (expired, evicted): settled messages are never requested again.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <unordered_map>
#include <vector>

#include "engine/range_set.h"
#include "core/message_record.h"
#include "core/types.h"

namespace dissem::engine {

// Exponential backoff of one missing item (a message we request).
struct RequestState {
  std::uint32_t level = 0;    // times requested since the last reset
  Micros next_eligible = 0;   // not requested again before this
  std::uint32_t cursor = 0;   // where the next round's gap list starts (sweep)
  // Held back by another member's request since we last asked ourselves: a
  // second overheard request does not hold it back again (a stream of
  // requests nobody answers must not silence ours).
  bool deferred = false;
};

struct MessageState {
  // Unknown until one fragment arrived. Held apart: most tracked messages
  // under a hearsay flood never get one, and each then costs a pointer, not
  // a whole MessageMeta (bench_hearsay_flood).
  std::unique_ptr<MessageMeta> meta;
  ByteRanges have;                  // bytes held (cleared once complete)
  bool complete = false;
  Micros first_seen = 0;
  Micros last_arrival = 0;
  std::uint32_t fragments = 0;      // fragments received (for the arrival rate)
  std::uint32_t conflicts = 0;      // fragments and symbols that contradicted meta (length, digest)
  RequestState request;
  // Reassembly copy for messages a local subscriber wants: delivery then needs
  // no read-back from the cache. Empty when over the memory budget (the cache
  // is always written, and is read instead).
  std::vector<std::uint8_t> buffer;
};

struct StreamState {
  SeqRanges settled;
  std::uint64_t newest = 0;    // newest sequence number known to exist
  std::uint64_t data_newest = 0;  // newest sequence number a fragment or symbol was seen of
  std::uint64_t baseline = 0;  // oldest sequence number we want; 0 = no contact yet
};

// Unstored: new, but the cache could not take it (NodeContext::cache_write):
// dropped, and the tracker cut back to what the cache holds.
// LengthConflict, DigestConflict: the fragment names the message with
// another length or digest than the one known (a forger's, a buggy peer's,
// or ours if a forger got in first): dropped, counted in `conflicts`.
enum class FragmentOutcome { New, Completed, Duplicate, Settled, LengthConflict, DigestConflict, Overloaded, Unstored };

// Bounds against hostile hearsay: a message tracked without any fragment or
// symbol of it seen (from a beacon, summary or request, or a sequence gap) is
// "hearsay". When the tracker is full, data displaces the oldest hearsay
// instead of being refused; hearsay beyond the newest sequence number a
// stream's data showed expires (expire_hearsay), rolling the stream's
// `newest` back to what is still known; hearsay alone creates at most
// `max_streams` streams.
class MessageTracker {
 public:
  explicit MessageTracker(std::size_t max_tracked, std::uint64_t buffer_budget = 0,
                          std::size_t max_streams = SIZE_MAX)
      : max_tracked_(max_tracked), buffer_budget_(buffer_budget), max_streams_(max_streams) {}

  // Records a fragment's bytes. Completed means this fragment finished the message.
  // With `payload` and `buffered`, also copies the bytes into the message's
  // reassembly buffer (allocated on first use while within the budget).
  FragmentOutcome on_fragment(const MessageMeta& meta, std::uint32_t offset, std::uint32_t length,
                              Micros now, const std::uint8_t* payload = nullptr, bool buffered = false);
  // A coded symbol of `meta`'s message arrived: tracks the message (its
  // metadata, its activity for tail detection) without adding bytes. New
  // when the message is incomplete here. Unlike a new fragment it does not
  // reset the request backoff: only an innovative symbol is progress
  // (note_progress), else useless answers would keep a requester asking.
  // Only the publisher's proactive symbols (`first_pass`) count as arrivals
  // for tail detection: a repair coming late would stretch the message's mean
  // inter-arrival gap and with it the silence a tail must wait for.
  FragmentOutcome on_symbol(const MessageMeta& meta, Micros now, bool first_pass);
  // The message gained rank: ask again soon if anything is still missing.
  void note_progress(const MessageId& id);
  // Hands over a completed message's reassembled bytes (empty if none were kept).
  std::vector<std::uint8_t> take_buffer(const MessageId& id);
  std::uint64_t buffered_bytes() const { return buffered_bytes_; }

  // Forgets hearsay tracked before `older_than` about sequence numbers
  // beyond what its stream's data showed; streams left with nothing are
  // dropped. Returns how many messages were forgotten.
  std::size_t expire_hearsay(Micros older_than);
  // Hearsay displaced by data, and hearsay claims refused (tracker full,
  // or a new stream over max_streams), since construction.
  std::uint64_t hearsay_displaced() const { return hearsay_displaced_; }
  std::uint64_t hearsay_refused() const { return hearsay_refused_; }

  // Declares that messages up to `seq` exist in `stream`. For streams we want
  // (`track_gaps`), unsettled sequence numbers from the baseline up to `seq`
  // become known-missing messages. First contact sets the baseline to
  // seq - history (never below 1). `inclusive`: a claim that `seq` exists
  // (hearsay); otherwise `seq` is a message being received.
  void learn_newest(const StreamId& stream, std::uint64_t seq, bool track_gaps, std::uint32_t history,
                    bool inclusive, Micros now);
  // Moves the baseline down to fetch `count` older messages.
  void extend_history(const StreamId& stream, std::uint32_t count, Micros now);
  // A stream known before anything of it was wanted (heard in a beacon
  // before a subscription): wanted from `from` on, so the messages from
  // `from` to the newest known become missing unless settled.
  void want_from(const StreamId& stream, std::uint64_t from, Micros now);
  // A peer holds the sequence numbers `held` ([begin, end) pairs, ascending):
  // those not settled here become known-missing, and they (and those already
  // missing) are first requested at `not_before`; the baseline moves down to
  // the first of them (at most 1,024 new items per stream and call, like any gap).
  void learn_available(const StreamId& stream, const std::vector<std::pair<std::uint64_t, std::uint64_t>>& held,
                       Micros now, Micros not_before);

  // Gives up on a message (expired, evicted): settled, never requested again.
  void settle(const MessageId& id);
  // Forgets everything received of a message whose data cannot be trusted
  // (failed verification, contradicted): it is missing again, with unknown
  // metadata, and is requested at once.
  void reopen(const MessageId& id);
  void restore(const MessageMeta& meta, bool complete,
               const std::vector<std::pair<std::uint32_t, std::uint32_t>>& fragments, Micros first_seen);
  // After the cache lost writes it had taken (a failed commit rolls back to
  // the one before): every message with data is cut back to what `cached`
  // (the cache's index) holds of it. One complete here but not there is
  // incomplete again, keeping its metadata, and is requested like any other.
  // Returns the messages cut back.
  std::size_t cut_back_to(const std::vector<MessageRecord>& cached);

  MessageState* find(const MessageId& id);
  const MessageState* find(const MessageId& id) const;
  // The priority of a message tracked here with its meta (0 otherwise).
  std::uint32_t priority_of(const MessageId& id) const {
    const MessageState* st = find(id);
    return st != nullptr && st->meta ? st->meta->priority : 0;
  }
  StreamState* stream(const StreamId& s);
  const StreamState* stream(const StreamId& s) const;
  bool settled(const MessageId& id) const;
  // Every message of `stream` below `end` has ended (learnt from a beacon's
  // ended_below): none is missing any more. Returns the incomplete ones it
  // settled (their partial data is the caller's to drop).
  std::vector<MessageId> settle_below(const StreamId& stream, std::uint64_t end);
  // Takes back a settlement made on a claim since contradicted (ending/ended_streams.h):
  // the sequence numbers in [begin, end) are no longer settled, and those a
  // wanted stream reaches (from its baseline to its newest) are missing again
  // (at most kMaxGapTracked per call, like any gap).
  void unsettle(const StreamId& stream, std::uint64_t begin, std::uint64_t end, Micros now);
  // Every incomplete item becomes eligible for requests at `not_before`
  // (0: at once), its backoff forgotten.
  void reset_backoff_all(Micros not_before = 0);
  // Items tracked from now on are first requested at `t` at the earliest (a
  // later hold already set stands): a contact's anti-entropy exchange goes
  // first, so its pushes are not raced by requests for the same data.
  void hold_new_requests_until(Micros t) { hold_new_until_ = std::max(hold_new_until_, t); }

  // Incomplete messages (including known-missing ones), in a stable order.
  template <typename F>
  void for_each_incomplete(F&& f) {
    for (auto& [id, st] : incomplete_) f(id, *st);
  }
  std::size_t incomplete_count() const { return incomplete_.size(); }
  // Complete messages with their metadata, in no particular order.
  template <typename F>
  void for_each_complete(F&& f) const {
    for (const auto& [id, st] : messages_)
      if (st.complete && st.meta) f(*st.meta);
  }
  const std::unordered_map<StreamId, StreamState, StreamIdHash>& streams() const { return streams_; }

 private:
  // `data`: a fragment or symbol of it is at hand (may displace hearsay).
  MessageState* track(const MessageId& id, Micros now, bool data = false);
  // Stops tracking a hearsay message (not settled: it may be learnt again).
  void forget(const MessageId& id);
  // newest = the largest of what data showed, what is settled and what is tracked.
  void recompute_newest(const StreamId& stream, StreamState& s);
  // The stream's state; a new one only within max_streams, unless `data`.
  StreamState* stream_for(const StreamId& stream, bool data);
  // The state a fragment or symbol of `meta` adds to, or null with the reason
  // it adds nothing (settled, over the tracking limit, complete, inconsistent).
  MessageState* admit(const MessageMeta& meta, Micros now, FragmentOutcome& outcome);
  void mark_complete(const MessageId& id, MessageState& st);

  void release_buffer(MessageState& st);

  std::size_t max_tracked_;
  std::uint64_t buffer_budget_;
  std::size_t max_streams_;
  std::uint64_t hearsay_displaced_ = 0;
  std::uint64_t hearsay_refused_ = 0;
  // Hearsay in the order it was tracked (entries that have since seen data,
  // completed or gone are skipped when they reach the front).
  std::deque<std::pair<Micros, MessageId>> hearsay_;
  Micros hold_new_until_ = 0;
  std::uint64_t buffered_bytes_ = 0;
  std::unordered_map<MessageId, MessageState, MessageIdHash> messages_;
  // Ordered view of the incomplete ones: deterministic request rounds.
  std::map<MessageId, MessageState*> incomplete_;
  std::unordered_map<StreamId, StreamState, StreamIdHash> streams_;
};

// Ranges of `st` worth requesting now: interior gaps always; the tail beyond
// the highest byte received once the message has been silent for longer than
// `tail_timeout` and than four of its own mean inter-arrival gaps (a
// publisher that shares its rate with repairs slows down; that is not a
// loss). The tail is asked for `tail_chunk` bytes at a time: a silent
// publisher may simply not have sent the rest yet. Empty with `whole` set:
// the message is entirely unknown.
struct MissingRanges {
  bool whole = false;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> ranges;
  bool empty() const { return !whole && ranges.empty(); }
};
MissingRanges missing_ranges(const MessageState& st, Micros now, Micros tail_timeout,
                             std::uint32_t tail_chunk = 0xffffffffu);

}  // namespace dissem::engine
