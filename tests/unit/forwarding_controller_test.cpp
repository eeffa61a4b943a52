// The forwarding controllers' decisions, against a fake view of the node.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "controllers/forwarding/probabilistic_flooding.h"
#include "controllers/forwarding/subscription_aware.h"
#include "engine/interests.h"

namespace dissem::controllers::forwarding_controller_test {
namespace {

class FakeView final : public NodeView {
 public:
  NodeId id = 10;
  Micros packet = 10 * kMillis;
  std::map<std::string, std::vector<PeerInterest>> interests;
  std::vector<std::string> subscriptions;

  NodeId self() const override { return id; }
  Micros packet_time() const override { return packet; }
  Micros serve_delay_max() const override { return 3 * packet; }
  bool subscribed(const std::string& g) const override {
    return std::find(subscriptions.begin(), subscriptions.end(), g) != subscriptions.end();
  }
  std::span<const PeerInterest> interest(const std::string& g) const override {
    const auto it = interests.find(g);
    if (it == interests.end()) return {};
    return it->second;
  }  std::vector<NeighbourCount> neighbours() const override { return {}; }
  std::vector<NeighbourCount> neighbours_of(NodeId) const override { return {}; }
  std::uint64_t neighbourhood_version() const override { return 0; }
};

MessageMeta meta(std::uint64_t seq, const std::string& group = "g") {
  MessageMeta m;
  m.id = MessageId{group, 1, seq};
  m.total_length = 4000;
  return m;
}

ReceivedFragment fragment(const MessageMeta& m, std::uint32_t offset, std::uint32_t hops, NodeId transmitter,
                          bool repair = false) {
  return ReceivedFragment{m, offset, 1000, hops, false, transmitter, repair};
}

TEST(ProbabilisticFlooding, RebroadcastsEachFragmentOnceWithinTheHopLimit) {
  ProbabilisticFlooding f({1.0, 3, 0});
  FakeView view;
  Random rng(1);
  const auto m = meta(1);
  const auto d = f.on_new_fragment(fragment(m, 0, 0, 1), view, 0, rng);
  EXPECT_TRUE(d.forward);
  EXPECT_GE(d.delay, 0);
  EXPECT_LE(d.delay, 4 * view.packet);  // derived: four fragment times
  // The same fragment again (after eviction, from another forwarder): never twice.
  EXPECT_FALSE(f.on_new_fragment(fragment(m, 0, 1, 7), view, 0, rng).forward);
  EXPECT_TRUE(f.on_new_fragment(fragment(m, 1000, 2, 7), view, 0, rng).forward);  // another offset
  EXPECT_FALSE(f.on_new_fragment(fragment(m, 2000, 3, 7), view, 0, rng).forward);  // hop limit reached
  EXPECT_TRUE(f.relays("anything", view));
  EXPECT_EQ(f.interest_radius(), 0u);
}

TEST(ProbabilisticFlooding, RebroadcastsWithTheConfiguredProbability) {
  for (const double p : {0.0, 0.3, 1.0}) {
    ProbabilisticFlooding f({p, 8, 5 * kMillis});
    FakeView view;
    Random rng(42);
    int forwarded = 0;
    constexpr int kFragments = 4000;
    for (int i = 0; i < kFragments; ++i) {
      const auto m = meta(static_cast<std::uint64_t>(i + 1));
      const auto d = f.on_new_fragment(fragment(m, 0, 0, 1), view, 0, rng);
      if (d.forward) {
        ++forwarded;
        EXPECT_LE(d.delay, 5 * kMillis);
      }
    }
    EXPECT_NEAR(static_cast<double>(forwarded) / kFragments, p, 0.03) << "p = " << p;
  }
}

TEST(ProbabilisticFlooding, SameSeedSameDecisions) {
  const auto run = [] {
    ProbabilisticFlooding f({0.5, 8, 0});
    FakeView view;
    Random rng(7);
    std::vector<Micros> out;
    for (int i = 0; i < 100; ++i) {
      const auto m = meta(static_cast<std::uint64_t>(i + 1));
      const auto d = f.on_new_fragment(fragment(m, 0, 0, 1), view, 0, rng);
      out.push_back(d.forward ? d.delay : -1);
    }
    return out;
  };
  EXPECT_EQ(run(), run());
}

// Line 1 - 10 (us) - 20 - 30 where 30 subscribes: 20 advertises distance 1 via 30.
TEST(SubscriptionAwareForwarding, ForwardsTowardsASubscriberBeyondThisNode) {
  SubscriptionAwareForwarding f({8, 0});
  FakeView view;
  view.interests["g"] = {{1, 2, 10}, {20, 1, 30}};  // node 1 learnt it through us
  Random rng(1);
  const auto m = meta(1);
  EXPECT_TRUE(f.on_new_fragment(fragment(m, 0, 0, 1), view, 0, rng).forward);
  EXPECT_TRUE(f.relays("g", view));
  // A group nobody beyond us wants stays here.
  const auto other = meta(1, "other");
  EXPECT_FALSE(f.on_new_fragment(fragment(other, 0, 0, 1), view, 0, rng).forward);
  EXPECT_FALSE(f.relays("other", view));
  EXPECT_EQ(f.interest_radius(), 8u);
}

TEST(SubscriptionAwareForwarding, DoesNotSendBackTowardsWhereTheFragmentCameFrom) {
  SubscriptionAwareForwarding f({8, 0});
  FakeView view;
  Random rng(1);
  // The only interest is the transmitter's own, or learnt through us.
  view.interests["g"] = {{20, 0, 0}, {30, 1, 10}};
  EXPECT_FALSE(f.on_new_fragment(fragment(meta(1), 0, 1, 20), view, 0, rng).forward);
  // A neighbour as far from a subscriber as the transmitter is: no progress.
  view.interests["g"] = {{20, 1, 5}, {30, 1, 6}};
  EXPECT_FALSE(f.on_new_fragment(fragment(meta(2), 0, 1, 20), view, 0, rng).forward);
  // ... unless it subscribes itself.
  view.interests["g"] = {{20, 0, 0}, {30, 0, 0}};
  EXPECT_TRUE(f.on_new_fragment(fragment(meta(3), 0, 1, 20), view, 0, rng).forward);
}

TEST(SubscriptionAwareForwarding, RespectsTheHopLimitAndTheDistanceLeft) {
  SubscriptionAwareForwarding f({3, 0});
  FakeView view;
  Random rng(1);
  view.interests["g"] = {{20, 2, 30}};  // a subscriber two hops beyond neighbour 20
  // hops 0: ours is the 1st rebroadcast, two more reach the subscriber: fine.
  EXPECT_TRUE(f.on_new_fragment(fragment(meta(1), 0, 0, 1), view, 0, rng).forward);
  // hops 1: ours is the 2nd, the subscriber would need a 4th: not worth it.
  EXPECT_FALSE(f.on_new_fragment(fragment(meta(2), 0, 1, 1), view, 0, rng).forward);
  EXPECT_FALSE(f.on_new_fragment(fragment(meta(3), 0, 3, 1), view, 0, rng).forward);
}

TEST(SubscriptionAwareForwarding, RepairsAreRebroadcastOnlyByNodesOnThePath) {
  SubscriptionAwareForwarding f({8, 0});
  FakeView view;
  Random rng(1);
  view.interests["g"] = {{20, 0, 0}};
  // Overheard repair, never on the path: stays here, and we do not relay.
  EXPECT_FALSE(f.on_new_fragment(fragment(meta(1), 0, 0, 0, true), view, 0, rng).forward);
  EXPECT_FALSE(f.relays("g", view));
  // First-pass data puts us on the path; then repairs go on too.
  EXPECT_TRUE(f.on_new_fragment(fragment(meta(2), 0, 0, 1), view, 0, rng).forward);
  EXPECT_TRUE(f.on_new_fragment(fragment(meta(3), 0, 0, 0, true), view, 0, rng).forward);
  EXPECT_TRUE(f.relays("g", view));
  // Interest gone: no longer a relay.
  view.interests.clear();
  EXPECT_FALSE(f.relays("g", view));
}

TEST(SubscriptionAwareForwarding, ANearerSubscriberDoesNotHideAFartherOne) {
  // The 5x5 grid's n19: the fragment comes from n14, one hop from subscriber
  // n13 and two from subscriber n25; neighbour n20 is one hop from n25. By the
  // nearest subscriber alone n19 would make no progress, yet it is on n25's path.
  SubscriptionAwareForwarding f({10, 0});
  FakeView view;
  view.interests["g"] = {{14, 1, 13, 13}, {14, 2, 15, 25}, {20, 2, 15, 13}, {20, 1, 25, 25}};
  Random rng(1);
  EXPECT_TRUE(f.on_new_fragment(fragment(meta(1), 0, 3, 14), view, 0, rng).forward);
  // Without n25's vector there is nothing beyond us.
  view.interests["g"] = {{14, 1, 13, 13}, {20, 2, 15, 13}};
  EXPECT_FALSE(f.on_new_fragment(fragment(meta(2), 0, 3, 14), view, 0, rng).forward);
}

TEST(InterestTable, AdvertisesOneVectorPerSubscriberNotLearntThroughUs) {
  engine::InterestTable t;
  const NodeId self = 10;
  t.update(20, {{"a", 0, 0, 20}, {"b", 3, 40, 41}, {"c", 1, self, 11}, {"own", 2, 21, 77}});
  t.update(30, {{"b", 1, 50, 41}, {"b", 2, 51, 42}, {"d", 4, 60, 61}, {"own", 1, self, 10}});
  const auto ad = t.advertise(self, {"own"}, 4);
  const std::vector<engine::AdvertisedInterest> expected = {
      {"a", 1, 20, 20},                     // a neighbour's own subscription
      {"b", 2, 30, 41}, {"b", 3, 30, 42},   // per subscriber: 41 nearer through 30 than through 20
      {"own", 0, 0, self}, {"own", 3, 20, 77}};  // ours, and a farther subscriber of the same group
  // c: split horizon (learnt through us); d: beyond the radius; 30's vector to us: we know our own.
  EXPECT_EQ(ad, expected);
  ASSERT_EQ(t.of("b").size(), 3u);
  EXPECT_EQ(t.of("b")[0].peer, 20u);  // ordered by peer, then subscriber
  EXPECT_EQ(t.of("b")[2].subscriber, 42u);
  // A new beacon replaces what the peer said; a silent peer's entries go.
  t.update(20, {{"a", 2, 70, 71}});
  EXPECT_TRUE(t.of("c").empty());
  EXPECT_EQ(t.of("a")[0].distance, 2u);
  t.forget(30);
  EXPECT_TRUE(t.of("b").empty());
  EXPECT_EQ(t.groups(), (std::set<std::string>{"a"}));
}

}  // namespace
}  // namespace dissem::controllers::forwarding_controller_test
