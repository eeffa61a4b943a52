// The data frames' size on the air (engine/frame_size_estimate.h) and the
// timers that follow it (engine/timing.h).
#include "engine/frame_size_estimate.h"

#include <gtest/gtest.h>

#include "engine/timing.h"

namespace dissem::engine::frame_size_estimate_test {
namespace {

TEST(FrameSizeEstimate, StartsAtTheSmallerOfTheDefaultAndTheFullFrame) {
  EXPECT_EQ(FrameSizeEstimate(1448, 65048).bytes(), 1448u);
  EXPECT_EQ(FrameSizeEstimate(1448, 560).bytes(), 560u) << "never above a full-size frame";
}

TEST(FrameSizeEstimate, FollowsTheFramesOnTheAirWithinItsBounds) {
  FrameSizeEstimate small(1448, 65048);
  for (int i = 0; i < 100; ++i) small.on_frame(60);
  EXPECT_EQ(small.bytes(), FrameSizeEstimate::kMinFrame) << "60-byte frames count as the 64-byte floor";
  FrameSizeEstimate large(1448, 65048);
  for (int i = 0; i < 100; ++i) large.on_frame(100'000);
  EXPECT_EQ(large.bytes(), 65048u) << "a datagram larger than a full frame counts as a full one";
  FrameSizeEstimate one(1000, 65048);
  one.on_frame(1800);
  EXPECT_EQ(one.bytes(), 1100u) << "one frame moves the mean an eighth of the way";
}

TEST(FrameSizeEstimate, SmallFramesShortenTheTimersThatFullSizeOnesSetOnASlowLink) {
  EngineConfig c;
  c.link_capacity_bps = 2'400;
  c.payload_size = 65'000;  // loopback's
  c.per_datagram_overhead = 28;
  const Timing full = Timing::derive(c, 50 * kMillis, 1);
  const Timing small = Timing::derive(c, 50 * kMillis, 1, 100);
  EXPECT_EQ(full.packet_time, (65'000 + 48 + 28) * 8 * kSeconds / 2'400);
  EXPECT_EQ(small.packet_time, (100 + 28) * 8 * kSeconds / 2'400);
  EXPECT_LT(small.in_flight_slack, 1 * kSeconds) << "a copy sent seconds before a request does not answer it";
  EXPECT_LT(small.request_backoff, full.request_backoff / 100);
  EXPECT_EQ(Timing::derive(c, 50 * kMillis, 1, 1'000'000).packet_time, full.packet_time) << "capped at full size";
}

}  // namespace
}  // namespace dissem::engine::frame_size_estimate_test
