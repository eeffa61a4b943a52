// Beacons, the node's part that builds and paces them: peer discovery,
// round-trip echoes, the newest sequence number of every stream (in a
// rotating window) with its group reference and what of it has ended,
// reception reports for publishers' redundancy, and, for the controllers
// that need them, interests, the oldest message held and neighbour counts
// (our own, and in each echo the echoed peer's).
//
// Paced to the link (link_timers.h): at most beacon_max_bytes each, and
// every node's beacons together within half the control share of a channel
// they may all be sharing (each node takes its part of it, by the number of
// neighbours it hears); on slow links a beacon saying nothing new doubles
// the wait for the next (up to 16x the period), while a node sending its own
// first pass defers them, and a newcomer is greeted within a quarter period.
// Echoes go to a few peers a beacon, in turn, so a beacon's size does not
// grow with the neighbourhood.
// "Nothing new": the same streams, peers, interests and (to 5 %) losses; a
// stream's advancing newest number is not news (its data says so).
//
// The node sends what build() returns and reports it with sent(); what a
// received beacon says is handled by the receive path.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "controllers/forwarding/forwarding_controller.h"
#include "controllers/replication/replication_controller.h"
#include "engine/ending/ended_streams.h"
#include "engine/group_naming.h"
#include "engine/interests.h"
#include "engine/link_quality.h"
#include "engine/node_context.h"
#include "engine/own_publications.h"
#include "engine/peers.h"
#include "engine/radio_model.h"
#include "engine/reception_meter.h"
#include "engine/relay_watch.h"
#include "engine/subscribers/subscriptions.h"
#include "engine/two_hop_neighbours.h"
#include "wire/frame_budget.h"

namespace dissem::engine {

// The parts a beacon reports on, read as they stand when it is built.
struct BeaconSources {
  const PeerTable& peers;
  const LinkQuality& links;
  const ReceptionMeter& reception;
  const OwnPublications& own;
  const GroupNaming& naming;
  EndedStreams& ended;  // our own watermarks are read from the cache
  // The controllers in force (a host may replace one at run time).
  const std::unique_ptr<controllers::ForwardingController>& forwarding;
  const std::unique_ptr<controllers::ReplicationController>& replication;
  const RelayWatch& relay_watch;
  const InterestTable& interests;
  const Subscriptions& subscriptions;
  const RadioModel& radio_model;
  const TwoHopNeighbours& two_hop;  // the neighbour counts passed on in echoes
};

// Peers echoed in one beacon, at most (they take turns).
constexpr std::size_t kEchoesPerBeacon = 4;

class Beacons {
 public:
  Beacons(NodeContext& ctx, BeaconSources sources) : ctx_(ctx), src_(sources) {}

  // The first beacon, spread over a quarter period so that nodes started
  // together do not collide.
  void start(Micros now);
  Micros next() const { return next_; }
  // Brings the next beacon forward (to now at the soonest, and not within a
  // quarter period of the last): it has news that should not wait.
  void hasten(Micros now);
  // A neighbour we had not heard, whose beacon does not echo ours, may have
  // come up after our last beacon: on a slow link, where quiet beacons back
  // off to many minutes, the next comes within a quarter period (jittered,
  // so the neighbours greeting it do not all speak at once), and never
  // sooner than a full period after the last (invented ids cannot make a
  // node beacon faster than an unquiet one).
  void greet(Micros now);

  // The beacon due now waits while our own first pass is on the air, on a
  // slow link, for at most the longest period: true if it waits (the next
  // time is set).
  bool hold(Micros now, bool first_pass_waiting);
  struct Built {
    std::vector<std::uint8_t> bytes;
    std::size_t content = 0;  // a hash of what it says, without what changes every time
  };
  Built build(Micros now);
  // The beacon built at `now` went to the send queue (or was refused there):
  // when the next one is due.
  void sent(Micros now, std::size_t bytes, std::size_t content);

  // The last beacon's interest entries that name a next hop (watched by relay_watch).
  const std::vector<AdvertisedInterest>& named_relays() const { return named_relays_; }

 private:
  void add_echoes(wire::Beacon& b, std::size_t limit, Micros now);
  void add_newest(wire::Beacon& b, wire::FrameBudget& budget);
  void add_reception(wire::Beacon& b, wire::FrameBudget& budget) const;
  void add_interests(wire::Beacon& b, wire::FrameBudget& budget, Micros now);

  NodeContext& ctx_;
  BeaconSources src_;
  Micros next_ = 0;
  std::size_t rotation_ = 0;  // where the next beacon's window of streams starts
  NodeId echo_from_ = 0;      // the peer the next beacon's echoes start at
  std::uint32_t sent_ = 0;    // beacons built (each one's seq)
  Micros last_at_ = 0;
  std::size_t last_content_ = 0;  // what the last said
  std::uint32_t quiet_ = 0;       // how many in a row said nothing new
  std::vector<AdvertisedInterest> named_relays_;
};

}  // namespace dissem::engine
