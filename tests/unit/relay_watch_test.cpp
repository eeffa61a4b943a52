// The relay watchdog (engine/relay_watch.h) and what it changes in the next
// hops a node advertises (engine/interests.h).
#include "engine/relay_watch.h"

#include <gtest/gtest.h>

#include "engine/interests.h"

namespace dissem::engine::relay_watch_test {
namespace {

constexpr NodeId kRelay = 7;

TEST(RelayWatch, ASilentRelayIsAvoidedAfterEnoughCopiesOverLongEnough) {
  RelayWatch w(RelayWatchParams{10, 5 * kSeconds, 60 * kSeconds});
  // Ten copies within a second: not yet (it may not have our beacon).
  for (int i = 0; i < 10; ++i) EXPECT_FALSE(w.on_named_copy(kRelay, i * 100 * kMillis));
  EXPECT_TRUE(w.avoided(kSeconds).empty());
  // Still nothing relayed five seconds after the first copy.
  EXPECT_TRUE(w.on_named_copy(kRelay, 5 * kSeconds));
  EXPECT_EQ(w.avoided(5 * kSeconds), std::set<NodeId>{kRelay});
  EXPECT_EQ(w.avoided_count(), 1u);
  // Not counted while avoided; named again after the period, counting anew.
  EXPECT_FALSE(w.on_named_copy(kRelay, 30 * kSeconds));
  EXPECT_TRUE(w.avoided(65 * kSeconds).empty());
  for (int i = 0; i < 9; ++i) EXPECT_FALSE(w.on_named_copy(kRelay, 65 * kSeconds + i * kSeconds));
  EXPECT_EQ(w.avoided_count(), 1u);
}

TEST(RelayWatch, AnyRelayedCopyHeardResetsTheCount) {
  RelayWatch w(RelayWatchParams{10, 0, 60 * kSeconds});
  for (int round = 0; round < 20; ++round) {
    for (int i = 0; i < 9; ++i) EXPECT_FALSE(w.on_named_copy(kRelay, round * kSeconds));
    w.on_relay_heard(kRelay);
  }
  EXPECT_EQ(w.avoided_count(), 0u);
  // Other relays are counted apart, and a relay that left is forgotten.
  for (int i = 0; i < 9; ++i) w.on_named_copy(8, 0);
  w.on_relay_heard(kRelay);
  EXPECT_TRUE(w.on_named_copy(8, 0));
  w.forget(8);
  EXPECT_TRUE(w.avoided(0).empty());
}

AdvertisedInterest entry(std::uint32_t distance, NodeId via, NodeId subscriber) {
  return {"g", distance, via, subscriber};
}

TEST(InterestTable, AnAvoidedNeighbourIsPassedOverForALongerRouteButKeptIfItIsTheOnlyOne) {
  InterestTable t;
  // Towards subscriber 100: neighbour 2 in 1 hop, neighbour 3 in 2.
  // Towards subscriber 200: only neighbour 2.
  t.update(2, {entry(0, 0, 2), entry(1, 100, 100), entry(1, 200, 200)});
  t.update(3, {entry(2, 4, 100)});
  const auto plain = t.advertise(10, {}, 8);
  const auto avoiding = t.advertise(10, {}, 8, {2});
  auto route = [](const std::vector<AdvertisedInterest>& out, NodeId subscriber) {
    for (const auto& e : out)
      if (e.subscriber == subscriber) return e;
    return AdvertisedInterest{};
  };
  EXPECT_EQ(route(plain, 100).via, 2u);
  EXPECT_EQ(route(plain, 100).distance, 2u);
  EXPECT_EQ(route(avoiding, 100).via, 3u) << "the longer way round";
  EXPECT_EQ(route(avoiding, 100).distance, 3u) << "advertised with its true length";
  EXPECT_EQ(route(avoiding, 200).via, 2u) << "no other way: kept";
  EXPECT_EQ(route(avoiding, 2).via, 2u) << "the neighbour itself is still a subscriber we reach";
  EXPECT_EQ(t.advertise(10, {}, 8, {}), plain);
}

}  // namespace
}  // namespace dissem::engine::relay_watch_test
