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
#pragma once

#include <cstdint>
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

  // A watermark heard for another stream; true if it moved.
  bool learn(const StreamId& stream, std::uint64_t ended_below);
  std::uint64_t learnt(const StreamId& stream) const {
    const auto it = learnt_.find(stream);
    return it == learnt_.end() ? 0 : it->second;
  }

 private:
  std::size_t max_streams_;
  std::unordered_map<std::string, SeqRanges> own_;
  std::unordered_map<std::string, std::uint64_t> saved_;  // own watermarks as stored
  std::unordered_map<StreamId, std::uint64_t, StreamIdHash> learnt_;
};

}  // namespace dissem::engine
