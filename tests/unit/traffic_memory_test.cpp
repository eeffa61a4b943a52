#include <gtest/gtest.h>

#include "engine/traffic_memory.h"
#include "engine/traffic_meter.h"

using namespace dissem;
using namespace dissem::engine;

TEST(TrafficMemory, RemembersWithinTheWindowOnly) {
  TrafficMemory ntm(100 * kMillis);
  const FragmentKey k{{"g", 1, 1}, 1400};
  EXPECT_FALSE(ntm.seen_recently(k, 0));
  ntm.record(k, 1000);
  EXPECT_TRUE(ntm.seen_recently(k, 1000));
  EXPECT_TRUE(ntm.seen_recently(k, 1000 + 100 * kMillis));
  EXPECT_FALSE(ntm.seen_recently(k, 1000 + 100 * kMillis + 1));
  EXPECT_FALSE(ntm.seen_recently(FragmentKey{{"g", 1, 1}, 0}, 1000)) << "other offsets are distinct";
}

TEST(TrafficMemory, ARecentSightingRefreshesAndOldOnesArePruned) {
  TrafficMemory ntm(10 * kMillis);
  const FragmentKey k{{"g", 1, 1}, 0};
  ntm.record(k, 0);
  ntm.record(k, 8 * kMillis);
  EXPECT_TRUE(ntm.seen_recently(k, 15 * kMillis)) << "the newer sighting counts";
  for (std::uint32_t i = 0; i < 1000; ++i) ntm.record(FragmentKey{{"g", 1, 2}, i}, 20 * kMillis);
  EXPECT_EQ(ntm.size(), 1000u);
  ntm.record(FragmentKey{{"g", 1, 3}, 0}, 100 * kMillis);
  EXPECT_EQ(ntm.size(), 1u) << "memory is bounded by one window of traffic";
}

TEST(TrafficMeter, MeasuresTheSlidingWindowRate) {
  TrafficMeter m(1 * kSeconds);
  for (int i = 0; i < 100; ++i) m.add(i * 10 * kMillis, 1250);  // 125 kB over 1 s = 1 Mbit/s
  EXPECT_NEAR(m.rate_bps(999 * kMillis), 1'000'000.0, 1.0);
  EXPECT_NEAR(m.rate_bps(3 * kSeconds), 0.0, 1e-9);
}
