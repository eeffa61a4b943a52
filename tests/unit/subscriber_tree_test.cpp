// Subscriber-tree forwarding: a node relays only when the copy's transmitter
// named it as its next hop towards a subscriber; and the interest table's
// choice of next hops, shared between subscribers where distances allow.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "controllers/forwarding/subscriber_tree.h"
#include "engine/interests.h"

namespace dissem::controllers::subscriber_tree_test {
namespace {

// A view over a real InterestTable, so entries are ordered as the engine orders them.
class TableView final : public NodeView {
 public:
  NodeId id = 10;
  engine::InterestTable table;

  NodeId self() const override { return id; }
  Micros packet_time() const override { return 10 * kMillis; }
  Micros serve_delay_max() const override { return 30 * kMillis; }
  bool subscribed(const std::string&) const override { return false; }
  std::span<const PeerInterest> interest(const std::string& g) const override { return table.of(g); }
  std::vector<NeighbourCount> neighbours() const override { return {}; }
  std::vector<NeighbourCount> neighbours_of(NodeId) const override { return {}; }
  std::uint64_t neighbourhood_version() const override { return 0; }
};

MessageMeta meta(std::uint64_t seq) {
  MessageMeta m;
  m.id = MessageId{"g", 1, seq};
  m.total_length = 1000;
  return m;
}

ReceivedFragment from(const MessageMeta& m, NodeId transmitter, std::uint32_t hops = 0, bool repair = false) {
  return ReceivedFragment{m, 0, 1000, hops, false, repair ? 0 : transmitter, repair};
}

engine::AdvertisedInterest entry(std::uint32_t distance, NodeId via, NodeId subscriber) {
  return {"g", distance, via, subscriber};
}

// Node 10 between transmitter 1 and subscriber 50 (two hops on: 10 -> 20 -> 50).
// Transmitter 1 names `via` as its next hop towards 50; 11 is another neighbour.
TableView line_through(NodeId via) {
  TableView v;
  v.table.update(1, {entry(3, via, 50)});
  v.table.update(20, {entry(1, 50, 50)});
  v.table.update(11, {entry(2, 21, 50)});
  return v;
}

TEST(SubscriberTree, RelaysOnlyWhenTheTransmitterNamedIt) {
  Random rng(1);
  {
    auto v = line_through(10);
    SubscriberTreeForwarding f({8, 0});
    EXPECT_EQ(naming_by_transmitter(from(meta(1), 1), v, 8), Naming::Named);
    const auto d = f.on_new_fragment(from(meta(1), 1), v, 0, rng);
    EXPECT_TRUE(d.forward);
    EXPECT_FALSE(d.yield_to_copies) << "a sibling's copy does not reach our next hop";
    EXPECT_TRUE(f.relays("g", v));
    EXPECT_FALSE(f.on_new_fragment(from(meta(1), 1), v, 0, rng).forward) << "once per fragment";
  }
  {
    auto v = line_through(11);  // the transmitter chose the other neighbour
    SubscriberTreeForwarding f({8, 0});
    EXPECT_EQ(naming_by_transmitter(from(meta(1), 1), v, 8), Naming::NotNamed);
    EXPECT_FALSE(f.on_new_fragment(from(meta(1), 1), v, 0, rng).forward);
    EXPECT_FALSE(f.relays("g", v));
    // Off the tree, a repair is not relayed either.
    EXPECT_FALSE(f.on_new_fragment(from(meta(2), 0, 0, true), v, 0, rng).forward);
  }
}

TEST(SubscriberTree, NamedForItselfOnlyDoesNotRelay) {
  TableView v;
  v.table.update(1, {entry(1, 10, 10)});  // the transmitter's route to us, the subscriber
  v.table.update(20, {entry(2, 30, 10)});
  SubscriberTreeForwarding f({8, 0});
  Random rng(1);
  EXPECT_EQ(naming_by_transmitter(from(meta(1), 1), v, 8), Naming::NotNamed);
  EXPECT_FALSE(f.on_new_fragment(from(meta(1), 1), v, 0, rng).forward) << "the last subscriber on its branch";
}

TEST(SubscriberTree, HopLimitBoundsTheNaming) {
  auto v = line_through(10);  // the subscriber is 3 hops from the transmitter: 1 more rebroadcast after ours
  EXPECT_EQ(naming_by_transmitter(from(meta(1), 1, 6), v, 8), Naming::Named);  // 1 left after ours
  EXPECT_EQ(naming_by_transmitter(from(meta(1), 1, 7), v, 8), Naming::NotNamed);  // none left
}

TEST(SubscriberTree, FallsBackToDistanceWhenTheTransmitterSaysNothing) {
  TableView v;
  v.table.update(20, {entry(1, 50, 50)});  // transmitter 1 advertises nothing (its beacon had no room)
  SubscriberTreeForwarding f({8, 0});
  Random rng(1);
  EXPECT_EQ(naming_by_transmitter(from(meta(1), 1), v, 8), Naming::Unmentioned);
  const auto d = f.on_new_fragment(from(meta(1), 1), v, 0, rng);
  EXPECT_TRUE(d.forward);
  EXPECT_TRUE(d.yield_to_copies);
  // On the tree now: repairs of the group are relayed towards the subscriber.
  EXPECT_TRUE(f.on_new_fragment(from(meta(2), 0, 0, true), v, 0, rng).forward);
}

TEST(SubscriberTree, HostileClaimsOfOthersCannotSilenceANamedRelay) {
  // Neighbour 66 claims routes to a thousand subscribers, all through us
  // and through itself: it changes nothing about what transmitter 1 named.
  auto v = line_through(10);
  std::vector<engine::AdvertisedInterest> lies;
  for (NodeId s = 1000; s < 2000; ++s) lies.push_back(entry(1, 10, s));
  v.table.update(66, lies);
  SubscriberTreeForwarding f({8, 0});
  Random rng(1);
  EXPECT_TRUE(f.on_new_fragment(from(meta(1), 1), v, 0, rng).forward);
  // Nor does a liar make an unnamed node relay for subscribers it routes through us.
  auto off = line_through(11);
  off.table.update(66, lies);
  EXPECT_FALSE(SubscriberTreeForwarding({8, 0}).on_new_fragment(from(meta(1), 1), off, 0, rng).forward);
}

TEST(InterestTable, NextHopsAreSharedBetweenSubscribersWhenEquallyNear) {
  engine::InterestTable t;
  // Neighbours 2 and 3 are both 2 hops from subscriber 100; only 3 also
  // leads to subscriber 200 (1 hop). Lowest id alone would pick 2 for 100.
  t.update(2, {entry(2, 5, 100)});
  t.update(3, {entry(2, 6, 100), entry(1, 200, 200)});
  const auto out = t.advertise(10, {}, 8);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].subscriber, 100u);
  EXPECT_EQ(out[0].via, 3u);
  EXPECT_EQ(out[0].distance, 3u);
  EXPECT_EQ(out[1].subscriber, 200u);
  EXPECT_EQ(out[1].via, 3u);
  // A strictly nearer neighbour still wins over sharing.
  t.update(4, {entry(1, 100, 100)});
  EXPECT_EQ(t.advertise(10, {}, 8)[0].via, 4u);
}

}  // namespace
}  // namespace dissem::controllers::subscriber_tree_test
