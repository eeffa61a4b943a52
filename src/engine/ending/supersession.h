// What this node knows to be superseded: Mockets' replace and cancel.
//
// A message may end older messages of its own stream (group, publisher):
//   - by tag (`replace`): every older message with the same tag, whether
//     this node has seen it or not;
//   - by sequence number (`supersedes`): the ones its publisher names.
// A cancel is a message that only ends others. An ended message is never
// sent, repaired, requested or delivered here, and leaves the cache. The
// rules are learnt from the metadata every fragment carries, so a node that
// never saw the older message still refuses it when it turns up later.
//
// Memory is bounded: per stream at most kMaxTags tag rules (beyond them new
// tags are refused and counted) and kMaxRanges ranges of explicit sequence
// numbers (the oldest are forgotten first), and at most `max_streams`
// streams (the least recently changed one is forgotten).
#pragma once

#include <cstdint>
#include <deque>
#include <list>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/range_set.h"
#include "core/types.h"

namespace dissem::engine {

class Supersession {
 public:
  static constexpr std::size_t kMaxTags = 4096;
  static constexpr std::size_t kMaxRanges = 4096;

  explicit Supersession(std::size_t max_streams = 4096) : max_streams_(max_streams) {}

  // Learns what `meta` ends. True if anything was new.
  bool learn(const MessageMeta& meta);
  // Whether the message `meta` describes is ended by what was learnt.
  bool ended(const MessageMeta& meta) const;
  // Whether sequence number `seq` of `stream` was ended by number (its tag
  // may be unknown here).
  bool ended(const StreamId& stream, std::uint64_t seq) const;
  // Records that `seq` of `stream` is ended (found ended by its tag: the
  // number outlives the metadata).
  void end_number(const StreamId& stream, std::uint64_t seq) { rules_for(stream).numbers.add(seq, seq + 1); }
  bool empty() const { return streams_.empty(); }
  // Tag rules refused (kMaxTags reached) since construction.
  std::uint64_t refused() const { return refused_; }

 private:
  struct Rules {
    SeqRanges numbers;                                  // ended by sequence number
    std::unordered_map<std::string, std::uint64_t> tags;  // tag -> newest replacing seq
    std::list<StreamId>::iterator recency;
  };
  Rules& rules_for(const StreamId& stream);

  std::size_t max_streams_;
  std::uint64_t refused_ = 0;
  std::unordered_map<StreamId, Rules, StreamIdHash> streams_;
  std::list<StreamId> recency_;  // least recently changed first
};

// The sequence numbers a new message of `tag` supersedes, from the
// publisher's record of its recent (seq, tag) pairs, as flat [begin, end)
// pairs, at most `max_ranges` of them (the newest kept).
class OwnTags {
 public:
  static constexpr std::size_t kRemembered = 256;  // recent own messages per group
  void note(const std::string& group, std::uint64_t seq, const std::string& tag);
  std::vector<std::uint64_t> with_tag(const std::string& group, const std::string& tag, std::size_t max_ranges) const;

 private:
  std::unordered_map<std::string, std::deque<std::pair<std::uint64_t, std::string>>> recent_;
};

}  // namespace dissem::engine
