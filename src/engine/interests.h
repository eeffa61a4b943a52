// Interest in groups, as neighbours advertise it in their beacons (only when
// the forwarding controller asks for it: subscription-aware forwarding), and
// what this node advertises in turn. Distance-vector with split horizon:
// one vector per subscribing node: a node's distance to subscriber S is 0 if
// it is S, else 1 + the smallest distance to S a neighbour advertises that
// was not learnt through this node; beyond the radius it advertises nothing. Entries live as long as the
// neighbour's latest beacon: each beacon replaces what that peer said, and a
// silent peer's entries go with it.
#pragma once

#include <map>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "controllers/node_view.h"
#include "core/types.h"

namespace dissem::engine {

struct AdvertisedInterest {
  std::string group;
  std::uint32_t distance = 0;
  NodeId via = 0;
  NodeId subscriber = 0;
  bool operator==(const AdvertisedInterest&) const = default;
};

class InterestTable {
 public:
  // Replaces everything `peer` advertised with `entries`.
  void update(NodeId peer, const std::vector<AdvertisedInterest>& entries);
  void forget(NodeId peer);
  // Neighbours' interest in `group`, ordered by peer, then subscriber.
  std::span<const controllers::PeerInterest> of(const std::string& group) const;
  // What this node advertises, ordered by group then subscriber: itself at
  // distance 0 for `own` groups, and for every other subscriber it hears of,
  // its best distance within `radius` through its nearest neighbour (ties:
  // the neighbour nearest towards the most of the group's subscribers, then
  // the lowest id, so that paths to several subscribers share relays).
  // Neighbours in `avoid` are next hops only towards subscribers no other
  // neighbour leads to.
  std::vector<AdvertisedInterest> advertise(NodeId self, const std::set<std::string>& own, std::uint32_t radius,
                                            const std::set<NodeId>& avoid = {}) const;
  // Groups anyone advertises.
  std::set<std::string> groups() const;
  // Groups some other node subscribes to: interest neither of `self` nor
  // learnt through it (what a neighbour says back of our own subscriptions
  // is not someone else's).
  std::set<std::string> groups_of_others(NodeId self) const;

 private:
  std::map<std::string, std::vector<controllers::PeerInterest>> by_group_;
};

}  // namespace dissem::engine
