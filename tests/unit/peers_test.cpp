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

TEST(PeerTable, BaseRttIsTheSmallestRecentSample) {
  PeerTable t;
  t.heard(1, 0);
  t.on_base_sample(1, 40 * kMillis, 0, 10 * kSeconds);
  t.on_base_sample(1, 20 * kMillis, 1 * kSeconds, 10 * kSeconds);
  t.on_base_sample(1, 900 * kMillis, 2 * kSeconds, 10 * kSeconds);
  EXPECT_EQ(t.all().at(1).min_rtt, 20 * kMillis) << "a queue's samples do not raise the base";
  t.on_base_sample(1, 700 * kMillis, 11 * kSeconds + 1, 10 * kSeconds);
  EXPECT_EQ(t.all().at(1).min_rtt, 700 * kMillis) << "a base older than the window gives way";
  t.on_base_sample(1, 30 * kMillis, 12 * kSeconds, 10 * kSeconds);
  EXPECT_EQ(t.all().at(1).min_rtt, 30 * kMillis);
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
  for (NodeId id : {1u, 2u}) {  // both established: two beacons each
    t.on_beacon(id, 1, 1, 0);
    t.on_beacon(id, 2, 2, 0);
  }
  EXPECT_FALSE(t.heard(3, 0)) << "over the cap";
  t.on_beacon(3, 1, 1, 0);  // a beacon of a peer not admitted changes nothing
  EXPECT_EQ(t.all().size(), 2u);
  EXPECT_EQ(t.refused(), 1u);
  EXPECT_FALSE(t.heard(1, 10)) << "known peers are refreshed, not refused";
  EXPECT_EQ(t.all().at(1).last_heard, 10);
  t.expire(5 * kSeconds, kSeconds);  // both fall silent
  EXPECT_TRUE(t.heard(3, 5 * kSeconds)) << "room again once others went silent";
}

TEST(PeerTable, InventedIdsMakeRoomForRealNeighboursAndCountForNothing) {
  PeerTable t(3);
  t.heard(1, 0);
  t.on_beacon(1, 1, 1, 0);
  t.on_beacon(1, 2, 2, 0);
  EXPECT_TRUE(t.established(1));
  // A flood of one-off ids (a request or a phantom beacon each) fills the table...
  for (NodeId id = 100; id < 200; ++id) {
    t.heard(id, id);
    t.on_beacon(id, 1, 1, id);
  }
  EXPECT_EQ(t.all().size(), 3u) << "the cap holds";
  EXPECT_TRUE(t.all().contains(1)) << "an established neighbour is never displaced by invented ids";
  EXPECT_EQ(t.established_count(), 1u) << "one-off ids do not count";
  // ... and a real newcomer still gets in, displacing the longest-silent one-off.
  EXPECT_TRUE(t.heard(7, 1000));
  EXPECT_TRUE(t.all().contains(7));
  EXPECT_FALSE(t.all().contains(198));
  EXPECT_TRUE(t.all().contains(199));
}

TEST(PeerTable, APeerThatSpacesItsBeaconsOutIsKeptForFiveOfItsPeriods) {
  PeerTable t;
  t.heard(1, 0);
  t.heard(2, 0);
  // Peer 1 beacons every 8 s (one of them lost: numbers 1, 2, 4, 5 ...);
  // peer 2 every second.
  Micros at = 0;
  for (std::uint32_t seq : {1u, 2u, 4u, 5u, 6u}) {
    at = (seq - 1) * 8 * kSeconds;
    t.heard(1, at);
    t.on_beacon(1, 0, seq, at);
  }
  EXPECT_EQ(t.all().at(1).beacon_gap, 8 * kSeconds) << "a lost beacon counts as sent";
  for (std::uint32_t seq = 1; seq <= 41; ++seq) {
    t.heard(2, (seq - 1) * kSeconds);
    t.on_beacon(2, 0, seq, (seq - 1) * kSeconds);
  }
  EXPECT_EQ(t.all().at(2).beacon_gap, 1 * kSeconds);
  // 30 s after their last beacons, with 5 s configured: peer 2 is gone,
  // peer 1 (five of its periods are 40 s) is not.
  auto gone = t.expire(at + 30 * kSeconds, 5 * kSeconds);
  EXPECT_EQ(gone, std::vector<NodeId>{2});
  gone = t.expire(at + 41 * kSeconds, 5 * kSeconds);
  EXPECT_EQ(gone, std::vector<NodeId>{1});
}
