#include <gtest/gtest.h>

#include "engine/network_traffic_memory.h"
#include "engine/incoming_traffic_meter.h"

#include <map>

#include "core/random.h"

using namespace dissem;
using namespace dissem::engine;

TEST(NetworkTrafficMemory, RemembersWithinTheWindowOnly) {
  NetworkTrafficMemory ntm(100 * kMillis);
  const FragmentKey k{{"g", 1, 1}, 1400};
  EXPECT_FALSE(ntm.seen_recently(k, 0));
  ntm.record(k, 1000);
  EXPECT_TRUE(ntm.seen_recently(k, 1000));
  EXPECT_TRUE(ntm.seen_recently(k, 1000 + 100 * kMillis));
  EXPECT_FALSE(ntm.seen_recently(k, 1000 + 100 * kMillis + 1));
  EXPECT_FALSE(ntm.seen_recently(FragmentKey{{"g", 1, 1}, 0}, 1000)) << "other offsets are distinct";
}

TEST(NetworkTrafficMemory, ARecentSightingRefreshesAndOldOnesArePruned) {
  NetworkTrafficMemory ntm(10 * kMillis);
  const FragmentKey k{{"g", 1, 1}, 0};
  ntm.record(k, 0);
  ntm.record(k, 8 * kMillis);
  EXPECT_TRUE(ntm.seen_recently(k, 15 * kMillis)) << "the newer sighting counts";
  for (std::uint32_t i = 0; i < 1000; ++i) ntm.record(FragmentKey{{"g", 1, 2}, i}, 20 * kMillis);
  EXPECT_EQ(ntm.size(), 1000u);
  ntm.record(FragmentKey{{"g", 1, 3}, 0}, 100 * kMillis);
  EXPECT_EQ(ntm.size(), 1u) << "memory is bounded by one window of traffic";
}

TEST(IncomingTrafficMeter, MeasuresTheSlidingWindowRate) {
  IncomingTrafficMeter m(1 * kSeconds);
  for (int i = 0; i < 100; ++i) m.add(i * 10 * kMillis, 1250);  // 125 kB over 1 s = 1 Mbit/s
  EXPECT_NEAR(m.rate_bps(999 * kMillis), 1'000'000.0, 1.0);
  // With 30 bytes of framing on each of the 100 datagrams: 128 kB in the second.
  EXPECT_NEAR(m.air_rate_bps(999 * kMillis, 30), 1'024'000.0, 1.0);
  EXPECT_NEAR(m.rate_bps(3 * kSeconds), 0.0, 1e-9);
}

TEST(NetworkTrafficMemory, AgreesWithAReferenceModelUnderChurn) {
  // Random sightings of a small key space over time, with pruning, table
  // growth and backward-shift deletions: every answer must match a plain map.
  NetworkTrafficMemory ntm(50 * kMillis);
  std::map<std::pair<std::uint64_t, std::uint32_t>, Micros> model;
  Random rng(77);
  Micros now = 0;
  for (int step = 0; step < 200'000; ++step) {
    now += rng.uniform_int(0, 300);
    const std::uint64_t seq = static_cast<std::uint64_t>(rng.uniform_int(1, 40));
    const auto offset = static_cast<std::uint32_t>(rng.uniform_int(0, 60) * 1400);
    const FragmentKey key{{"grp", 3, seq}, offset};
    if (rng.chance(0.5)) {
      ntm.record(key, now);
      model[{seq, offset}] = now;
    } else {
      auto it = model.find({seq, offset});
      const bool expected = it != model.end() && it->second >= now - 50 * kMillis;
      ASSERT_EQ(ntm.seen_recently(key, now), expected) << "step " << step;
    }
  }
  std::size_t live = 0;
  for (const auto& [k, t] : model) live += t >= now - 50 * kMillis;
  EXPECT_EQ(ntm.size(), live) << "exactly the sightings inside the window are kept";
}
