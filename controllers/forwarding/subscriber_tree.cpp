#include "controllers/forwarding/subscriber_tree.h"

#include <algorithm>

#include "controllers/forwarding/interest_direction.h"
#include "controllers/forwarding/probabilistic_flooding.h"

namespace dissem::controllers {
namespace {

// The transmitter's own entries: contiguous (entries are ordered by peer,
// then subscriber), found by binary search.
std::span<const PeerInterest> entries_of(std::span<const PeerInterest> all, NodeId peer) {
  const auto lo = std::lower_bound(all.begin(), all.end(), peer, [](const PeerInterest& i, NodeId p) { return i.peer < p; });
  const auto hi = std::upper_bound(lo, all.end(), peer, [](NodeId p, const PeerInterest& i) { return p < i.peer; });
  return {lo, hi};
}

bool mentions(std::span<const PeerInterest> own, NodeId subscriber) {
  const auto at = std::lower_bound(own.begin(), own.end(), subscriber,
                                   [](const PeerInterest& i, NodeId s) { return i.subscriber < s; });
  return at != own.end() && at->subscriber == subscriber;
}

}  // namespace

Naming naming_by_transmitter(const ReceivedFragment& f, const NodeView& node, std::uint32_t hop_limit) {
  if (f.hops >= hop_limit || f.transmitter == 0) return Naming::NotNamed;
  const auto all = node.interest(f.meta.id.group);
  const auto own = entries_of(all, f.transmitter);
  // After ours, a subscriber the transmitter sees `d` hops away is d - 1 from
  // us: d - 2 more rebroadcasts reach it.
  const std::uint32_t left = hop_limit - f.hops - 1;
  for (const auto& e : own)
    if (e.via == node.self() && e.subscriber != node.self() && e.distance <= left + 2) return Naming::Named;
  for (const auto& i : all) {
    if (i.peer == f.transmitter || i.via == node.self() || i.subscriber == node.self() || i.distance > left) continue;
    if (!mentions(own, i.subscriber)) return Naming::Unmentioned;
  }
  return Naming::NotNamed;
}

ForwardDecision SubscriberTreeForwarding::on_new_fragment(const ReceivedFragment& f, const NodeView& node, Micros,
                                                          Random& rng) {
  if (f.hops >= params_.hop_limit) return {};
  const std::string& group = f.meta.id.group;
  if (f.repair && !on_tree(group)) return {};
  if (!decided_.first_time(f.meta.id, f.offset)) return {};
  const Naming naming = f.repair ? Naming::Unmentioned : naming_by_transmitter(f, node, params_.hop_limit);
  if (naming == Naming::NotNamed) {
    // Off the tree for this copy: after kTreeMemory such copies in a row,
    // off the group's tree (the paths moved, or the vectors converged).
    if (auto it = tree_.find(group); it != tree_.end() && --it->second == 0) tree_.erase(it);
    return {};
  }
  if (naming == Naming::Named) {
    tree_[group] = kTreeMemory;
    return {true, forward_delay(params_.delay_max, node, rng), false};
  }
  // A repair, or a subscriber the transmitter says nothing of: judged by
  // distance alone, as subscription-aware forwarding judges it.
  if (!brings_subscriber_closer(f, node, params_.hop_limit)) return {};
  if (!f.repair) tree_[group] = kTreeMemory;
  return {true, forward_delay(params_.delay_max, node, rng)};
}

bool SubscriberTreeForwarding::relays(const std::string& group, const NodeView& node) const {
  return on_tree(group) && someone_beyond(group, node);
}

}  // namespace dissem::controllers
