// Subscriber-tree forwarding: interest that stops at the last subscriber on
// a branch, along one path per subscriber. The interest vectors of
// subscription-aware forwarding (proto/wire.proto, Interest) already say,
// for every subscriber a node knows, its next hop towards it (`via`). A node
// rebroadcasts a fragment only when the copy's transmitter named it as its
// next hop towards some subscriber still within the hop limit: the
// transmitter picks its relays, as an MPR selector does in NRL SMF (RFC
// 6621), but for its subscribers rather than for all its 2-hop neighbours.
// The relays of a stream form a tree from the publisher to the subscribers
// (the union of their shortest paths, ties broken by lowest id); nodes off
// it, and branches with no subscriber beyond, stay quiet.
//
// Next hops are chosen to be shared (engine/interests.h: among equally near
// neighbours, the one nearest towards the most subscribers), so the paths
// to several subscribers merge.
//
// Losses and partial knowledge:
// - a relay that missed its transmitter's copy (or heard another copy
//   first) does not relay it: it and the nodes behind it fetch it by
//   requests, hop by hop, like any hole (relays() is true on the tree);
// - a transmitter that advertises nothing about a subscriber (its beacon
//   had no room, or it is not heard yet) is judged as subscription-aware
//   forwarding judges it: we relay when we bring that subscriber nearer;
// - repairs name no transmitter: relayed only by the group's tree nodes,
//   and only those relay (request what they miss of) the group. A node
//   leaves a group's tree after kTreeMemory first-pass copies in a row that
//   did not name it (so the fallback before the vectors converge, or a
//   path that moved, does not keep it requesting for ever).
// A named relay does not drop its rebroadcast when it overhears another
// copy first (ForwardDecision::yield_to_copies): a sibling's copy does not
// reach its own next hop.
#pragma once

#include <map>
#include <string>

#include "controllers/forwarding/forwarded_memory.h"
#include "controllers/forwarding/forwarding_controller.h"
#include "controllers/forwarding/interest_params.h"

namespace dissem::controllers {

class SubscriberTreeForwarding final : public ForwardingController {
 public:
  // First-pass copies of a group not naming us, in a row, after which this
  // node no longer counts itself on the group's tree (stops relaying its
  // repairs and requesting what it misses of it).
  static constexpr std::uint32_t kTreeMemory = 16;

  explicit SubscriberTreeForwarding(InterestForwardingParams params) : params_(params) {}
  std::string_view name() const override { return "subscriber-tree"; }
  ForwardDecision on_new_fragment(const ReceivedFragment& fragment, const NodeView& node, Micros now,
                                  Random& rng) override;
  bool relays(const std::string& group, const NodeView& node) const override;
  std::uint32_t interest_radius() const override { return params_.hop_limit; }
  bool names_relays() const override { return true; }

 private:
  bool on_tree(const std::string& group) const { return tree_.contains(group); }

  InterestForwardingParams params_;
  ForwardedMemory decided_;
  // Groups this node relayed first-pass data of, with the copies not naming
  // us it still tolerates before it leaves the group's tree.
  std::map<std::string, std::uint32_t> tree_;
};

// How the transmitter of a first-pass copy regards this node (exposed for tests).
enum class Naming {
  Named,      // it named us as its next hop towards a subscriber within reach
  NotNamed,   // it advertises every subscriber our neighbours know, none through us
  Unmentioned // it says nothing of some subscriber we could bring nearer
};
Naming naming_by_transmitter(const ReceivedFragment& f, const NodeView& node, std::uint32_t hop_limit);

}  // namespace dissem::controllers
