// What has ended below a watermark, per stream: the publisher knows which of
// its own messages expired, were superseded or cancelled, and states in its
// beacons the number below which all of them have ended (Newest.ended_below);
// the nodes that hear it settle what they still miss below it (nobody holds
// it any more) and pass the number on. After an outage a receiver does not
// keep asking for messages whose lifetime ended while it was cut off and of
// which it never saw a byte (it cannot know their expiry otherwise).
//
// Only ended messages move the watermark: one merely evicted from the
// publisher's cache may still be held elsewhere, so the watermark stops there.
//
// In an open network a watermark heard from another node is hearsay: a relay
// with stale state, a node with a wrong clock or a spoofer may state one for
// messages that are live. Such a claim may stop this node asking for them,
// but the publisher's own word wins: its beacon's watermark for its own
// stream, and its first-pass data of a number the claim covered (it would not
// send a message it had ended). Either contradicts the claim: what was
// settled on it alone is reopened, and for a while (`trust`) no other node's
// claim may reach past the publisher's word. Who made the claim in force is
// kept, so that data refused because of it can be reported with its author.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>
#include <string>
#include <unordered_map>

#include "cache/store.h"
#include "engine/range_set.h"
#include "core/types.h"

namespace dissem::engine {

class EndedStreams {
 public:
  explicit EndedStreams(std::size_t max_streams) : max_streams_(max_streams) {}

  // Our own watermarks survive restarts in the node state ("ended/<group>").
  void restore(cache::Store& store);
  void own_ended(const std::string& group, std::uint64_t seq) { own_[group].add(seq, seq + 1); }
  // Our own stream's watermark (0: nothing ended from its start), kept in
  // the node state when it moved.
  std::uint64_t own_watermark(const std::string& group, cache::Store& store);

  enum class Claim { Ignored, Moved, Refused };
  // A watermark for another's stream stated by `claimer` (the publisher
  // itself, or another node). Moved: it is in force now. Refused: another
  // node's claim reaching past what the publisher itself said within
  // `trust` of `now`. Ignored: nothing new (or the table is full).
  Claim learn(const StreamId& stream, std::uint64_t ended_below, NodeId claimer, Micros now, Micros trust);
  std::uint64_t learnt(const StreamId& stream) const {
    const auto it = learnt_.find(stream);
    return it == learnt_.end() ? 0 : it->second.below;
  }
  // Sequence numbers settled on another node's claim alone (not complete,
  // not ended by the publisher's word): record them as such.
  void note_hearsay(const StreamId& stream, const std::vector<std::pair<std::uint64_t, std::uint64_t>>& settled);
  // The node whose claim settled `id` here, if `id` was settled on hearsay.
  std::optional<NodeId> hearsay_claimer(const MessageId& id) const;
  // The publisher says nothing below... `below` has ended (its beacon's
  // watermark, or 1 + nothing), or shows by its first-pass data that
  // `below` has not: its word holds for `trust` from `now`. Returns the
  // ranges settled on hearsay at or above `below`, which are no longer
  // settled (the caller reopens them), and lowers the watermark in force.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> publisher_word(const StreamId& stream, std::uint64_t below,
                                                                       Micros now);

 private:
  struct Learnt {
    std::uint64_t below = 0;     // the watermark in force
    NodeId hearsay_by = 0;       // the other node whose claim settled `hearsay` (the last one followed)
    SeqRanges hearsay;           // settled on another node's claim alone
    std::uint64_t publisher_says = 0;  // the publisher's own watermark (1: nothing ended) ...
    Micros publisher_at = 0;           // ... as of then
    bool publisher_heard = false;
  };
  Learnt* entry(const StreamId& stream);

  std::size_t max_streams_;
  std::unordered_map<std::string, SeqRanges> own_;
  std::unordered_map<std::string, std::uint64_t> saved_;  // own watermarks as stored
  std::unordered_map<StreamId, Learnt, StreamIdHash> learnt_;
};

}  // namespace dissem::engine
