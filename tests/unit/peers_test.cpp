#include <gtest/gtest.h>

#include "engine/peers.h"

using namespace dissem;
using namespace dissem::engine;

TEST(PeerTable, EstimatesLossFromBeaconSequenceGaps) {
  PeerTable t;
  EXPECT_TRUE(t.heard(5, 0));
  for (std::uint32_t seq = 1; seq <= 100; ++seq)
    if (seq % 4 != 0) t.on_beacon(5, 0, seq, seq);  // every 4th beacon lost
  EXPECT_NEAR(t.all().at(5).estimated_loss(), 0.25, 0.01);
  t.on_beacon(5, 0, 1, 200);  // the peer restarted: start counting again
  EXPECT_DOUBLE_EQ(t.all().at(5).estimated_loss(), 0.0);
}

TEST(PeerTable, RttIsSmoothedAndTheSlowestPeerSetsTheEstimate) {
  PeerTable t;
  t.heard(1, 0);
  t.heard(2, 0);
  EXPECT_EQ(t.rtt_estimate(50 * kMillis), 50 * kMillis) << "configured until measured";
  t.on_rtt_sample(1, 10 * kMillis);
  t.on_rtt_sample(2, 80 * kMillis);
  t.on_rtt_sample(2, 160 * kMillis);
  EXPECT_EQ(t.rtt_estimate(50 * kMillis), 90 * kMillis);  // 80 + (160 - 80) / 8
}

TEST(PeerTable, SilentPeersExpire) {
  PeerTable t;
  t.heard(1, 0);
  t.heard(2, 4 * kSeconds);
  const auto gone = t.expire(6 * kSeconds, 5 * kSeconds);
  ASSERT_EQ(gone, std::vector<NodeId>{1});
  EXPECT_EQ(t.all().size(), 1u);
  EXPECT_TRUE(t.heard(1, 7 * kSeconds)) << "a returning peer counts as new";
}

TEST(PeerTable, NewPeersBeyondTheCapAreNotTracked) {
  PeerTable t(2);
  EXPECT_TRUE(t.heard(1, 0));
  EXPECT_TRUE(t.heard(2, 0));
  EXPECT_FALSE(t.heard(3, 0)) << "over the cap";
  t.on_beacon(3, 1, 1, 0);  // a beacon of a peer not admitted changes nothing
  EXPECT_EQ(t.all().size(), 2u);
  EXPECT_EQ(t.refused(), 1u);
  EXPECT_FALSE(t.heard(1, 10)) << "known peers are refreshed, not refused";
  EXPECT_EQ(t.all().at(1).last_heard, 10);
  t.expire(5 * kSeconds, kSeconds);  // both fall silent
  EXPECT_TRUE(t.heard(3, 5 * kSeconds)) << "room again once others went silent";
}
