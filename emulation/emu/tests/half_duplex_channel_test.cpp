// The half-duplex (simplex) channel alone and inside the link model, in
// virtual time: exact times, no tolerances.
#include "half_duplex_channel.h"

#include <gtest/gtest.h>

#include <vector>

#include "link_model.h"
#include "test_frames.h"

namespace dissem::emu {
namespace {

using testing::broadcast_frame;

constexpr TimeNs kMs = 1'000'000;
constexpr TimeNs kForever = 1'000'000 * kNsPerSecond;

// Every transmission of the channel, in order, until it is idle (bounded).
std::vector<HalfDuplexChannel::Transmission> run_out(HalfDuplexChannel& c) {
  std::vector<HalfDuplexChannel::Transmission> out;
  for (int i = 0; i < 10'000 && c.next_end(); ++i) out.push_back(c.finish());
  return out;
}

HalfDuplexParams params(TimeNs turnaround, TimeNs max_hold = 0) {
  return HalfDuplexParams{1'000'000, turnaround, max_hold};
}

TEST(HalfDuplexChannel, HolderSendsItsQueueBackToBackThenHandsOverAfterTheTurnaround) {
  HalfDuplexChannel c(2, params(500 * kMs));
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(c.offer(0, 1, broadcast_frame(), 100 * kMs, 50));
  ASSERT_TRUE(c.offer(0, 2, broadcast_frame(), 100 * kMs, 50));
  const auto out = run_out(c);
  ASSERT_EQ(out.size(), 4u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(out[i].sender, 1u);
    EXPECT_EQ(out[i].start, i * 100 * kMs);
  }
  // Node 2 waited for node 1's whole transmission, then the turnaround.
  EXPECT_EQ(out[3].sender, 2u);
  EXPECT_EQ(out[3].start, 300 * kMs + 500 * kMs);
  EXPECT_EQ(out[3].end, 900 * kMs);
  EXPECT_EQ(c.turnarounds(), 1u);
}

TEST(HalfDuplexChannel, NoTurnaroundWaitAfterAQuietSpellOrForTheSameNode) {
  HalfDuplexChannel c(2, params(500 * kMs));
  ASSERT_TRUE(c.offer(0, 1, broadcast_frame(), 100 * kMs, 50));
  EXPECT_EQ(c.finish().end, 100 * kMs);
  // 1 s of silence is longer than the turnaround: node 2 starts at once.
  ASSERT_TRUE(c.offer(1100 * kMs, 2, broadcast_frame(), 100 * kMs, 50));
  const auto second = c.finish();
  EXPECT_EQ(second.start, 1100 * kMs);
  // The same node again right away: no turnaround.
  ASSERT_TRUE(c.offer(1200 * kMs, 2, broadcast_frame(), 100 * kMs, 50));
  EXPECT_EQ(c.finish().start, 1200 * kMs);
  // The other node 100 ms after: the rest of the turnaround (400 ms) first.
  ASSERT_TRUE(c.offer(1400 * kMs, 1, broadcast_frame(), 100 * kMs, 50));
  EXPECT_EQ(c.finish().start, 1800 * kMs);
  EXPECT_EQ(c.turnarounds(), 2u);
}

TEST(HalfDuplexChannel, MaxHoldHandsOverOnlyWhileOthersWait) {
  HalfDuplexChannel c(3, params(0, 250 * kMs));
  for (int i = 0; i < 6; ++i) ASSERT_TRUE(c.offer(0, 1, broadcast_frame(), 100 * kMs, 50));
  ASSERT_TRUE(c.offer(0, 3, broadcast_frame(), 100 * kMs, 50));
  const auto out = run_out(c);
  std::vector<NodeId> order;
  for (const auto& t : out) order.push_back(t.sender);
  // Node 1 holds for 3 frames (its turn is 300 ms >= 250 ms when the third
  // ends), node 3 sends its one frame, then node 1 finishes alone.
  EXPECT_EQ(order, (std::vector<NodeId>{1, 1, 1, 3, 1, 1, 1}));
  EXPECT_EQ(out.back().end, 700 * kMs);
}

TEST(HalfDuplexChannel, DropTailCountsFramesWaitingPerSender) {
  HalfDuplexChannel c(2, params(0));
  EXPECT_TRUE(c.offer(0, 1, broadcast_frame(), kMs, 2));   // on the air
  EXPECT_TRUE(c.offer(0, 1, broadcast_frame(), kMs, 2));   // waiting 1
  EXPECT_TRUE(c.offer(0, 1, broadcast_frame(), kMs, 2));   // waiting 2
  EXPECT_FALSE(c.offer(0, 1, broadcast_frame(), kMs, 2));  // full
  EXPECT_TRUE(c.offer(0, 2, broadcast_frame(), kMs, 2));   // another sender's queue
}

TEST(HalfDuplexChannel, TransmittingCoversExactlyTheTimeOnTheAir) {
  HalfDuplexChannel c(2, params(0));
  ASSERT_TRUE(c.offer(10 * kMs, 1, broadcast_frame(), 100 * kMs, 50));
  EXPECT_FALSE(c.transmitting(1, 5 * kMs));
  EXPECT_TRUE(c.transmitting(1, 10 * kMs));
  EXPECT_FALSE(c.transmitting(2, 50 * kMs));
  EXPECT_TRUE(c.transmitting(1, 109 * kMs));
  EXPECT_FALSE(c.transmitting(1, 110 * kMs));
}

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
