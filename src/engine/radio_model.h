// Whether the nodes around have radios of their own or share one channel.
// A node cannot be told, but it can see one of the two: one channel of
// capacity C never carries more than C, so a node that hears clearly more
// air time than C from others in the same window has proof of separate
// radios (what it sends itself is no evidence: it may be waiting in a radio
// queue the node cannot see). Seen in three different traffic windows within a
// minute, it holds for a minute after the last such window, and the node
// says so in its beacons (Beacon.separate_radios).
//
// Without that proof a node assumes the channel is shared, the case whose
// mistakes cost more there: nodes that yield to a busy channel take their
// floor of it together (ChannelShare), and a publisher sizes its proactive
// redundancy for the worst receiver. With it, each node's floor is its
// own radio's, and a publisher whose receivers report separate radios may
// leave the worst receivers to the holders (RedundancyPlanner's cover).
#pragma once

#include <cstdint>
#include <map>
#include <set>

#include "core/types.h"

namespace dissem::engine {

// Neighbours whose beacons must claim separate radios before a publisher
// relies on it (one lying or mistaken neighbour is not enough).
constexpr std::size_t kSeparateRadioClaims = 2;

class RadioModel {
 public:
  // Air time heard and sent per second, as a multiple of the capacity, above which one channel cannot explain it.
  static constexpr double kProofRatio = 1.3;
  static constexpr int kProofWindows = 3;
  static constexpr Micros kHold = 60 * kSeconds;

  explicit RadioModel(Micros window) : window_(window > 0 ? window : 1) {}

  // `ratio`: air time heard from others over the traffic window, divided by
  // the capacity.
  void on_sample(double ratio, Micros now);
  // This node has its own proof now.
  bool seen(Micros now) const { return proof_at_ != 0 && now - proof_at_ <= kHold; }

  // A neighbour's beacon said (or no longer says) it has proof.
  void on_claim(NodeId peer, bool claims, Micros now);
  // Neighbours whose fresh beacons claim separate radios.
  std::size_t claimed(Micros now) const;

 private:
  Micros window_;
  Micros proof_at_ = 0;
  std::int64_t last_window_ = -1;
  std::set<std::int64_t> over_;  // traffic windows with a sample over the ratio (recent ones)
  std::map<NodeId, Micros> claims_;
};

}  // namespace dissem::engine
