// The half-duplex (simplex) channel inside the link model, in virtual time:
// exact times, no tolerances. (The channel alone: tests/unit/link_channel_test.cpp.)
#include <gtest/gtest.h>

#include <vector>

#include "link_model.h"
#include "test_frames.h"

namespace dissem::emu {
namespace {

using testing::broadcast_frame;

using testing::kForever;
using testing::kMs;

LinkModel half_duplex_model(std::size_t nodes, std::uint64_t bps, TimeNs turnaround) {
  ModelConfig config;
  config.nodes = nodes;
  config.half_duplex = HalfDuplexParams{bps, turnaround, 0};
  return LinkModel(config, AddressPlan("test", nodes));
}

TEST(LinkModelHalfDuplex, ANodeOnTheAirHearsNothing) {
  // 300 ms one-way latency and no turnaround: node 2 starts sending while
  // node 1's frame is still on its way, so that copy reaches a deaf radio.
  LinkModel m = half_duplex_model(2, 1'000'000, 0);
  LinkEffects e;
  e.latency = 300 * kMs;
  m.set_effects(1, 2, e);
  m.set_effects(2, 1, e);
  m.offer(0, 1, broadcast_frame(1000));          // on the air 0..8 ms, due at node 2 at 308 ms
  m.offer(0, 2, broadcast_frame(100'000));       // on the air 8..808 ms
  std::vector<Delivery> out;
  m.poll(kForever, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].sender, 2u);
  EXPECT_EQ(out[0].due, 808 * kMs + 300 * kMs);
  EXPECT_EQ(m.counters().link(1, 2).half_duplex_dropped, 1u);
  EXPECT_EQ(m.counters().link(1, 2).in_flight(), 0u);
  EXPECT_EQ(m.half_duplex_turnarounds(), 1u);
}

TEST(LinkModelHalfDuplex, DirectionChangesCostTheTurnaroundOnTheWayToTheReceivers) {
  LinkModel m = half_duplex_model(3, 75, 2 * kNsPerSecond);
  // 1474-byte frames at 75 bit/s: 157.226667 s each (rounded up to the ns).
  const TimeNs frame_time = serialisation_time(1474, 75);
  EXPECT_EQ(frame_time, 157'226'666'667);
  m.offer(0, 1, broadcast_frame(1474));
  m.offer(1 * kNsPerSecond, 2, broadcast_frame(1474));  // a receiver answers
  std::vector<Delivery> out;
  m.poll(kForever, out);
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[0].due, frame_time);
  EXPECT_EQ(out[2].due, 2 * frame_time + 2 * kNsPerSecond);
  EXPECT_EQ(out[2].sender, 2u);
}

TEST(LinkModelHalfDuplex, RefusesToCombineWithOtherRadioStages) {
  ModelConfig config;
  config.nodes = 2;
  config.half_duplex.bps = 2400;
  config.shared_channel_bps = 2400;
  EXPECT_THROW(LinkModel(config, AddressPlan("test", 2)), std::invalid_argument);
  config.shared_channel_bps = 0;
  config.radio_bps = {2400, 0};
  EXPECT_THROW(LinkModel(config, AddressPlan("test", 2)), std::invalid_argument);
}

}  // namespace
}  // namespace dissem::emu
