// The 2-hop neighbourhood from beacon echoes (engine/two_hop_neighbours.h):
// accumulated over the echoes' turns, aged by the peer's own beacon numbers,
// bounded, dropped on a restart or silence; and in a node, fed only by
// established neighbours, with the neighbour counts in its beacons only
// under a forwarding controller that asks for them (relay-set).
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <vector>

#include "controllers/forwarding/forwarding_controller.h"
#include "engine/node.h"
#include "engine/two_hop_neighbours.h"
#include "sim/simulation.h"
#include "support/node_harness.h"
#include "wire/codec.h"
#include "support/test_time.h"

using namespace dissem;
using namespace dissem::engine;
using namespace dissem::test;

namespace two_hop_neighbours_test {
namespace {

using Echoed = TwoHopNeighbours::Echoed;

std::vector<NodeId> ids(const std::vector<Echoed>& v) {
  std::vector<NodeId> out;
  for (const auto& e : v) out.push_back(e.node);
  return out;
}

}  // namespace

TEST(TwoHopNeighbours, AccumulatesWhatTheEchoesTakeTurnsToSay) {
  TwoHopNeighbours t(16, 16);
  const std::vector<Echoed> first = {{11, 3}, {12, 0}, {13, 4}, {14, 2}};
  const std::vector<Echoed> second = {{15, 5}, {16, 1}};
  t.on_beacon(2, 1, 6, first);
  t.on_beacon(2, 2, 6, second);
  EXPECT_EQ(ids(t.neighbours_of(2)), (std::vector<NodeId>{11, 12, 13, 14, 15, 16}));
  EXPECT_EQ(t.neighbours_of(2)[2], (Echoed{13, 4}));
  EXPECT_EQ(t.announced(2), 6u);
  EXPECT_EQ(t.announced(3), 0u);
  EXPECT_TRUE(t.neighbours_of(3).empty());
  // A count passed on anew replaces the old one, and changes the version.
  const auto v = t.version();
  t.on_beacon(2, 3, 6, std::vector<Echoed>{{12, 7}});
  EXPECT_EQ(t.neighbours_of(2)[1], (Echoed{12, 7}));
  EXPECT_GT(t.version(), v);
  // Nothing new: the same version.
  const auto same = t.version();
  t.on_beacon(2, 4, 6, std::vector<Echoed>{{12, 7}});
  EXPECT_EQ(t.version(), same);
}

TEST(TwoHopNeighbours, AnEntryUnechoedForSeveralRoundsOfThePeersEchoesIsDropped) {
  TwoHopNeighbours t(16, 16);
  // Four echoes a beacon, six neighbours: a round is two beacons.
  t.on_beacon(2, 1, 6, std::vector<Echoed>{{11, 0}, {12, 0}, {13, 0}, {14, 0}});
  t.on_beacon(2, 2, 6, std::vector<Echoed>{{15, 0}, {16, 0}, {11, 0}, {12, 0}});
  // 13 and 14 stop being echoed: kept for kEchoRounds rounds (10 beacons),
  // whether we hear those beacons or not (numbers 3 to 11 lost).
  t.on_beacon(2, 11, 6, std::vector<Echoed>{{11, 0}, {12, 0}, {15, 0}, {16, 0}});
  EXPECT_EQ(t.neighbours_of(2).size(), 6u);
  t.on_beacon(2, 12, 6, std::vector<Echoed>{{11, 0}, {12, 0}, {15, 0}, {16, 0}});
  EXPECT_EQ(ids(t.neighbours_of(2)), (std::vector<NodeId>{11, 12, 15, 16}));
}

TEST(TwoHopNeighbours, ARestartedOrSilentPeerIsForgotten) {
  TwoHopNeighbours t(16, 16);
  t.on_beacon(2, 40, 3, std::vector<Echoed>{{11, 0}, {12, 0}});
  t.on_beacon(2, 1, 3, std::vector<Echoed>{{13, 0}});  // numbers went back: restarted
  EXPECT_EQ(ids(t.neighbours_of(2)), (std::vector<NodeId>{13}));
  const auto v = t.version();
  t.forget(2);
  EXPECT_TRUE(t.neighbours_of(2).empty());
  EXPECT_EQ(t.announced(2), 0u);
  EXPECT_GT(t.version(), v);
  EXPECT_EQ(t.peers(), 0u);
}

TEST(TwoHopNeighbours, BoundedInPeersAndEntriesPerPeer) {
  TwoHopNeighbours t(2, 3);
  std::vector<Echoed> many;
  for (NodeId id = 100; id < 150; ++id) many.push_back({id, 1});
  t.on_beacon(2, 1, 9, many);
  EXPECT_EQ(t.neighbours_of(2).size(), 3u);
  t.on_beacon(3, 1, 9, many);
  t.on_beacon(4, 1, 9, many);  // a third peer: refused
  EXPECT_EQ(t.peers(), 2u);
  EXPECT_TRUE(t.neighbours_of(4).empty());
  EXPECT_GT(t.refused(), 0u);
  // Id 0 is nobody.
  TwoHopNeighbours u(2, 3);
  u.on_beacon(2, 1, 1, std::vector<Echoed>{{0, 4}});
  EXPECT_TRUE(u.neighbours_of(2).empty());
}

namespace {


std::vector<std::uint8_t> beacon_from(NodeId from, std::uint32_t seq, std::uint32_t neighbours,
                                      const std::vector<NodeId>& echoes) {
  wire::Beacon b;
  b.set_node(from);
  b.set_sent_us(seq * 1000);
  b.set_seq(seq);
  b.set_neighbours(neighbours);
  for (NodeId e : echoes) {
    auto* x = b.add_echoes();
    x->set_peer(e);
    x->set_peer_sent_us(1);
  }
  return wire::encode(b);
}

// The first beacon the node sends after `now`.
std::optional<wire::Beacon> next_beacon(Node& n, Micros now) {
  for (int i = 0; i < 100; ++i, now += 100 * kMillis) {
    n.on_timer(now);
    for (const auto& d : drain(n, now)) {
      wire::Decoded out;
      if (!wire::decode(d, wire::Limits{}, out) && out.kind == wire::Kind::Beacon) return out.beacon;
    }
  }
  return std::nullopt;
}

// A forwarding controller that forwards nothing but asks for neighbour counts.
class CountsNeighbours final : public controllers::ForwardingController {
 public:
  std::string_view name() const override { return "counts-neighbours"; }
  controllers::ForwardDecision on_new_fragment(const controllers::ReceivedFragment&, const controllers::NodeView&,
                                               Micros, Random&) override {
    return {};
  }
  bool needs_neighbour_counts() const override { return true; }
};

std::optional<wire::Echo> echo_of(const wire::Beacon& b, NodeId peer) {
  for (const auto& e : b.echoes())
    if (e.peer() == peer) return e;
  return std::nullopt;
}

}  // namespace

TEST(TwoHopNeighbours, ANodeCountsOnlyEstablishedNeighboursAndSaysSoOnlyWhenAsked) {
  for (const bool asked : {true, false}) {
    EngineConfig cfg = fast_config(1);
    cfg.controllers.forwarding = "flooding";
    Node n(cfg, cache::Store::open(":memory:"), kT0);
    if (asked) n.set_forwarding_controller(std::make_unique<CountsNeighbours>());
    // Peer 2 is heard twice (established), the invented 900 once.
    n.on_datagram(beacon_from(2, 1, 3, {1, 5}), kT0);
    n.on_datagram(beacon_from(2, 2, 3, {6}), kT0 + 10 * kMillis);
    n.on_datagram(beacon_from(900, 1, 1000, {1, 7, 8}), kT0 + 20 * kMillis);
    const auto b = next_beacon(n, kT0 + 30 * kMillis);
    ASSERT_TRUE(b.has_value()) << asked;
    const auto e2 = echo_of(*b, 2);
    const auto e900 = echo_of(*b, 900);
    ASSERT_TRUE(e2.has_value());
    ASSERT_TRUE(e900.has_value()) << "echoed all the same: it was heard";
    if (asked) {
      EXPECT_EQ(b->neighbours(), 1u) << "one established neighbour";
      EXPECT_TRUE(e2->has_neighbours());
      EXPECT_EQ(e2->neighbours(), 3u);
      EXPECT_FALSE(e900->has_neighbours()) << "a one-off beacon counts for nothing";
    } else {
      EXPECT_EQ(b->neighbours(), 0u) << "beacons as they were";
      EXPECT_FALSE(e2->has_neighbours());
      EXPECT_FALSE(e900->has_neighbours());
    }
  }
}

}  // namespace two_hop_neighbours_test
