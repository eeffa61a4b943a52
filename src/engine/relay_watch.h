// The relay watchdog of subscriber-tree forwarding: a transmitter listens
// for the rebroadcasts of the neighbours it names as next hops, and stops
// naming one that never rebroadcasts.
//
// With subscriber-tree forwarding only the neighbour a transmitter names in
// its beacon (`via` towards a subscriber) rebroadcasts its first-pass
// copies. A neighbour that advertises short paths to every subscriber and
// then stays silent (a sinkhole: hostile, or a buggy peer) would cut the
// nodes behind it off the first pass; they would get everything by
// requests, hop by hop. The transmitter hears its relays' rebroadcasts on the
// shared channel, as a passive acknowledgement: a named neighbour from which
// nothing relayed is heard while `silent_after` copies it should have
// relayed went out, over at least `min_watch` (so it has had our beacons
// naming it), is avoided for `avoid_for`: our beacons name the next nearest
// neighbour instead (engine/interests.h), or it still when it is the only
// way to a subscriber.
//
// A relay that misses copies on a lossy link still relays others, and any
// relayed copy heard from it resets its count: at 50 % links each way, 48
// copies in a row go unanswered about once in a million windows.
//
// Sans-I/O and deterministic: time comes from the caller.
#pragma once

#include <cstdint>
#include <set>
#include <unordered_map>

#include "core/types.h"

namespace dissem::engine {

struct RelayWatchParams {
  std::uint32_t silent_after = 48;     // named copies without a relayed copy heard
  Micros min_watch = 5 * kSeconds;     // ... over at least this long
  Micros avoid_for = 60 * kSeconds;    // then not named for this long
};

class RelayWatch {
 public:
  explicit RelayWatch(RelayWatchParams params = {}) : params_(params) {}

  // We sent a copy that `relay`, named in our last beacon, should rebroadcast.
  // True if this made `relay` avoided.
  bool on_named_copy(NodeId relay, Micros now) {
    State& s = relays_[relay];
    if (s.avoid_until > now) return false;
    if (s.expected == 0) s.since = now;
    if (++s.expected < params_.silent_after || now - s.since < params_.min_watch) return false;
    s.expected = 0;
    s.avoid_until = now + params_.avoid_for;
    ++avoided_;
    return true;
  }

  // A rebroadcast (a copy it relayed, not a repair) was heard from `relay`.
  void on_relay_heard(NodeId relay) {
    if (auto it = relays_.find(relay); it != relays_.end()) it->second.expected = 0;
  }

  // Neighbours not to name now.
  std::set<NodeId> avoided(Micros now) const {
    std::set<NodeId> out;
    for (const auto& [relay, s] : relays_)
      if (s.avoid_until > now) out.insert(relay);
    return out;
  }

  // The neighbour is gone (its peer entry timed out).
  void forget(NodeId relay) { relays_.erase(relay); }

  // Times a named relay was found silent.
  std::uint64_t avoided_count() const { return avoided_; }

 private:
  struct State {
    std::uint32_t expected = 0;  // named copies since a relayed copy was last heard
    Micros since = 0;            // when the first of them went out
    Micros avoid_until = 0;
  };
  RelayWatchParams params_;
  std::unordered_map<NodeId, State> relays_;
  std::uint64_t avoided_ = 0;
};

}  // namespace dissem::engine
