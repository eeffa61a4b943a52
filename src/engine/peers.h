// Peers heard from, and round-trip estimates from beacon echoes.
// No membership protocol: a peer exists while we keep hearing it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "core/types.h"

namespace dissem::engine {

// The smoothed period of a peer's beacons after one numbered `steps` past the
// last heard arrived `elapsed` after it (lost ones in between count as sent).
inline Micros next_beacon_gap(Micros gap, Micros elapsed, std::uint32_t steps) {
  if (steps == 0 || elapsed <= 0) return gap;
  const Micros sample = elapsed / static_cast<Micros>(steps);
  return gap == 0 ? sample : (3 * gap + sample) / 4;
}

// Beacon periods a peer may miss before it counts as gone, beyond the
// configured `peer_silent_after` (which covers the node's own period).
constexpr Micros kSilentBeaconPeriods = 5;

struct Peer {
  Micros last_heard = 0;
  Micros srtt = 0;                  // smoothed RTT; 0 until the first sample
  // The smallest sample of the last base window (kept until it is older than
  // the window, then replaced by the next sample): the path without a queue.
  Micros min_rtt = 0;
  Micros min_rtt_at = 0;
  std::uint64_t beacon_sent_us = 0; // the peer's own timestamp on its last beacon
  Micros beacon_heard_at = 0;       // when we heard that beacon (to compute hold time)
  // Beacon sequence numbers seen, for the loss estimate.
  std::uint32_t first_beacon_seq = 0;
  std::uint32_t last_beacon_seq = 0;
  std::uint64_t beacons_heard = 0;
  // The peer's beacon period as we see it (0 before two beacons): spacing
  // grows with the number of nodes sharing a channel (beacons.h), so how
  // long a peer may stay silent follows what it actually does.
  Micros beacon_gap = 0;
  // The peer's clock minus ours (clock_offset.h), from the echo with the
  // smallest round trip in the last kClockWindow: unknown until an echo
  // of ours came back in one of its beacons.
  std::optional<Micros> clock_offset;
  Micros clock_offset_rtt = 0;
  Micros clock_offset_at = 0;
  bool clock_skew_reported = false;  // an event was raised and the offset has not come back since
  bool established() const { return beacons_heard >= 2; }

  // Fraction of this peer's beacons that did not reach us (0 before two).
  double estimated_loss() const {
    if (beacons_heard < 2 || last_beacon_seq <= first_beacon_seq) return 0.0;
    const double expected = static_cast<double>(last_beacon_seq - first_beacon_seq) + 1.0;
    return std::max(0.0, 1.0 - static_cast<double>(beacons_heard) / expected);
  }
};

class PeerTable {
 public:
  // At most `max_peers` at once: beacons from invented node ids cannot grow
  // the table (nor, through it, the timers derived from the peer count).
  explicit PeerTable(std::size_t max_peers = SIZE_MAX) : max_peers_(max_peers) {}

  // Returns true when `id` is new (or was silent and came back). A new peer
  // beyond max_peers is not added (false; counted in refused()).
  bool heard(NodeId id, Micros now);
  std::uint64_t refused() const { return refused_; }
  // A known peer's first-pass data heard: it is alive (on slow links its
  // beacons wait while it sends). Unknown ids are not added.
  void touch(NodeId id, Micros now) {
    if (auto it = peers_.find(id); it != peers_.end()) it->second.last_heard = std::max(it->second.last_heard, now);
  }
  // An established neighbour: one whose beacons we have heard more than once
  // (not just an id some datagram named, nor a one-off phantom beacon). Only
  // these scale the serving timers, rank responders and get a member's
  // serving budget, so invented ids cannot slow or steer the members.
  bool established(NodeId id) const {
    const auto it = peers_.find(id);
    return it != peers_.end() && it->second.established();
  }
  std::size_t established_count() const;
  void on_beacon(NodeId id, std::uint64_t peer_sent_us, std::uint32_t beacon_seq, Micros now);
  void on_rtt_sample(NodeId id, Micros sample);
  // A fresh sample without our own pacer's wait, taken at `now`, for
  // min_rtt; `base_window` bounds its age.
  void on_base_sample(NodeId id, Micros sample, Micros now, Micros base_window);
  // A clock-offset sample (clock_offset.h) with the round trip it came
  // with: kept if its round trip is the smallest in the window (the least
  // queueing, so the least asymmetry), or if the kept one is older than it.
  void on_clock_sample(NodeId id, Micros offset, Micros rtt, Micros now, Micros window);
  // clock_skew_crossed for the peer's kept offset, give or take half its
  // round trip: true once per crossing.
  bool on_skew_check(NodeId id, Micros limit);
  // The median of the established peers' kept clock offsets sampled since
  // `since`; nullopt when none is.
  std::optional<Micros> median_clock_offset(Micros since) const;
  // Our wall clock moved by `by`: every kept offset is that much less.
  void shift_clock_offsets(Micros by);
  // Removes peers not heard within `silent_after`, or within
  // kSilentBeaconPeriods of their own beacon period if that is longer;
  // returns them.
  std::vector<NodeId> expire(Micros now, Micros silent_after);
  // The largest smoothed RTT among peers (the slowest one sets our timers),
  // or `fallback` before any sample.
  Micros rtt_estimate(Micros fallback) const;
  const std::map<NodeId, Peer>& all() const { return peers_; }

 private:
  std::size_t max_peers_;
  std::uint64_t refused_ = 0;
  std::map<NodeId, Peer> peers_;  // ordered: deterministic iteration
};

}  // namespace dissem::engine
