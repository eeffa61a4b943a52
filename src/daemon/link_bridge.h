// The gateway between a daemon's links (DisService's gateway role). Each link
// is a node (engine) of its own on its own network: its own capacity,
// pacer, queues, neighbours, beacons, requests and repairs
// ([net.interface.NAME] link_capacity_bps). The bridge carries a message
// completed on one link into another link's network only when someone there
// wants its group: a neighbour that advertises the subscription
// (subscription-aware forwarding, the interest the forwarding controllers
// already learn), or, on the main link, this host's own applications (then
// it is kept and delivered here without being sent). To hear a group at
// all, the bridge subscribes the other links to it, which advertises the
// interest upstream in turn. Each carried message goes as a first pass at
// its priority, and not at all if that link could not send it before it
// expires (engine::Node::carry).
//
// Pure bookkeeping over the nodes: no sockets, no clock of its own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "engine/node.h"

namespace dissem::daemon {

class LinkBridge {
 public:
  // links[0] is the main link, the one this host's applications use.
  explicit LinkBridge(std::vector<engine::Node*> links) : links_(std::move(links)), neighbours_(links_.size()) {}

  // The groups this host's applications subscribe to (on the main link).
  void set_local_groups(std::set<std::string> groups) { local_ = std::move(groups); }

  // A group link `link` is now heard for the others (started), or no longer.
  struct Change {
    std::size_t link = 0;
    std::string group;
    bool started = false;
  };
  // Subscribes every link, for carrying, to the groups the other links
  // want, and ends the subscriptions no longer wanted; returns what changed.
  // Cheap: call it a few times a second.
  std::vector<Change> refresh(Micros now);

  // A delivery on link `link`: false if it is an application's; true if it
  // was on one of the bridge's subscriptions, and then the message is
  // carried into the links that want its group (as the last refresh found
  // their neighbours' interest).
  bool on_delivery(std::size_t link, const engine::Delivery& delivery, Micros now);

  struct Counters {
    std::uint64_t carried = 0;   // into a link's network (or, for this host's applications, its cache)
    std::uint64_t held = 0;      // offered to a link that held it already
    std::uint64_t too_late = 0;  // not carried: it would have expired before that link sent it
  };
  const Counters& counters() const { return counters_; }

  // The groups the bridge subscribes `link` to now.
  std::set<std::string> carried_from(std::size_t link) const;

 private:
  // Groups wanted on link `j`: its neighbours', and on the main link this host's.
  std::set<std::string> wanted_on(std::size_t j) const;

  std::vector<engine::Node*> links_;
  std::vector<std::set<std::string>> neighbours_;  // per link, its neighbours' groups at the last refresh
  std::set<std::string> local_;
  std::map<std::pair<std::size_t, std::string>, engine::SubscriptionId> subscriptions_;
  std::map<std::pair<std::size_t, engine::SubscriptionId>, std::string> groups_of_;
  Counters counters_;
};

}  // namespace dissem::daemon
