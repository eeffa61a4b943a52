// link::Channel alone, in virtual time (nanoseconds here): FIFO radios and
// shared channels, the half-duplex round robin with turnaround and max hold,
// drop-tail per sender. Exact times, no tolerances.
#include "link/channel.h"

#include <gtest/gtest.h>

#include <vector>

#include "link/link_time.h"

namespace dissem::link::link_channel_test {
namespace {

constexpr Time kNs = 1;
constexpr Time kMs = 1'000'000 * kNs;
constexpr Time kSecond = 1000 * kMs;

// Payloads are their own duration, so each test says how long a frame is.
using TestChannel = Channel<Time>;
const auto kOwnLength = [](std::size_t, const Time& length) { return length; };

// Offers a frame at `now` and starts the channel if it is idle.
bool offer(TestChannel& c, Time now, std::size_t sender, Time length) {
  if (!c.offer(sender, length)) return false;
  c.start(now, kOwnLength);
  return true;
}

// Every transmission until the channel is idle, as a driver runs them (bounded).
std::vector<TestChannel::Transmission> run_out(TestChannel& c) {
  std::vector<TestChannel::Transmission> out;
  for (int i = 0; i < 10'000 && c.next_end(); ++i) {
    out.push_back(c.finish());
    c.start(out.back().end, kOwnLength);
  }
  return out;
}

TEST(LinkChannel, IdleChannelSendsAtOnceAndFramesFollowBackToBack) {
  TestChannel c(1, 50);
  ASSERT_TRUE(offer(c, 100, 0, 10));
  EXPECT_EQ(c.next_end(), 110);
  ASSERT_TRUE(offer(c, 105, 0, 10));
  const auto out = run_out(c);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[1].start, 110);
  EXPECT_EQ(out[1].end, 120);
  EXPECT_FALSE(c.busy());
}

TEST(LinkChannel, LimitCountsWaitingFramesNotTheOneOnTheAir) {
  TestChannel c(1, 2);
  EXPECT_TRUE(offer(c, 0, 0, 10));   // on the air
  EXPECT_TRUE(offer(c, 0, 0, 10));   // waiting 1
  EXPECT_TRUE(offer(c, 0, 0, 10));   // waiting 2
  EXPECT_FALSE(offer(c, 0, 0, 10));  // full
  EXPECT_EQ(c.waiting(0), 2u);
  c.finish();
  c.start(10, kOwnLength);  // the second goes on the air at 10
  EXPECT_TRUE(offer(c, 10, 0, 10));
  EXPECT_FALSE(offer(c, 10, 0, 10));
}

TEST(LinkChannel, AnIdleChannelTakesAFrameEvenWithALimitOfZero) {
  TestChannel c(1, 0);
  EXPECT_TRUE(offer(c, 0, 0, 10));
  EXPECT_FALSE(offer(c, 5, 0, 10));
}

TEST(LinkChannel, SharedFifoServesAllSendersInOrderOfOfferWithDropTailPerSender) {
  TestChannel c(3, 1);
  EXPECT_TRUE(offer(c, 0, 2, 10));   // on the air
  EXPECT_TRUE(offer(c, 1, 0, 10));   // waiting, sender 0
  EXPECT_TRUE(offer(c, 2, 1, 10));   // waiting, sender 1
  EXPECT_FALSE(offer(c, 3, 0, 10));  // sender 0 is full...
  EXPECT_TRUE(offer(c, 4, 2, 10));   // ...sender 2 is not
  std::vector<std::size_t> order;
  for (const auto& t : run_out(c)) order.push_back(t.sender);
  EXPECT_EQ(order, (std::vector<std::size_t>{2, 0, 1, 2}));
}

TEST(LinkChannel, DurationIsFixedWhenTheFrameStarts) {
  Channel<int> c(1, 50);
  std::uint64_t bps = 8000;  // one byte per ms
  const auto at_rate = [&](std::size_t, const int& bytes) { return transmit_time(bytes, bps, kSecond); };
  c.offer(0, 10);
  c.start(0, at_rate);
  c.offer(0, 10);
  bps = 4000;  // the radio steps down: the waiting frame goes at the new rate
  const auto first = c.finish();
  EXPECT_EQ(first.end, 10 * kMs);
  EXPECT_EQ(c.start(first.end, at_rate)->end, 30 * kMs);
}

TEST(LinkChannel, AddedSendersJoinTheSharedOrder) {
  TestChannel c(0, 5);
  c.add_sender();
  c.add_sender();
  EXPECT_EQ(c.senders(), 2u);
  EXPECT_TRUE(offer(c, 0, 1, 10));
  EXPECT_EQ(c.finish().sender, 1u);
}

ChannelParams half_duplex(Time turnaround, Time max_hold = 0) {
  return ChannelParams{Turns::round_robin, turnaround, max_hold};
}

TEST(LinkChannelHalfDuplex, HolderSendsItsQueueBackToBackThenHandsOverAfterTheTurnaround) {
  TestChannel c(2, 50, half_duplex(500 * kMs));
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(offer(c, 0, 0, 100 * kMs));
  ASSERT_TRUE(offer(c, 0, 1, 100 * kMs));
  const auto out = run_out(c);
  ASSERT_EQ(out.size(), 4u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(out[i].sender, 0u);
    EXPECT_EQ(out[i].start, i * 100 * kMs);
  }
  // Sender 1 waited for sender 0's whole transmission, then the turnaround.
  EXPECT_EQ(out[3].sender, 1u);
  EXPECT_EQ(out[3].start, 300 * kMs + 500 * kMs);
  EXPECT_EQ(out[3].end, 900 * kMs);
  EXPECT_EQ(c.turnarounds(), 1u);
}

TEST(LinkChannelHalfDuplex, NoTurnaroundWaitAfterAQuietSpellOrForTheSameSender) {
  TestChannel c(2, 50, half_duplex(500 * kMs));
  ASSERT_TRUE(offer(c, 0, 0, 100 * kMs));
  EXPECT_EQ(c.finish().end, 100 * kMs);
  // 1 s of silence is longer than the turnaround: sender 1 starts at once.
  ASSERT_TRUE(offer(c, 1100 * kMs, 1, 100 * kMs));
  EXPECT_EQ(c.finish().start, 1100 * kMs);
  // The same sender again right away: no turnaround.
  ASSERT_TRUE(offer(c, 1200 * kMs, 1, 100 * kMs));
  EXPECT_EQ(c.finish().start, 1200 * kMs);
  // The other sender 100 ms after: the rest of the turnaround (400 ms) first.
  ASSERT_TRUE(offer(c, 1400 * kMs, 0, 100 * kMs));
  EXPECT_EQ(c.finish().start, 1800 * kMs);
  EXPECT_EQ(c.turnarounds(), 2u);
}

TEST(LinkChannelHalfDuplex, MaxHoldHandsOverOnlyWhileOthersWait) {
  TestChannel c(3, 50, half_duplex(0, 250 * kMs));
  for (int i = 0; i < 6; ++i) ASSERT_TRUE(offer(c, 0, 0, 100 * kMs));
  ASSERT_TRUE(offer(c, 0, 2, 100 * kMs));
  const auto out = run_out(c);
  std::vector<std::size_t> order;
  for (const auto& t : out) order.push_back(t.sender);
  // Sender 0 holds for 3 frames (its turn is 300 ms >= 250 ms when the third
  // ends), sender 2 sends its one frame, then sender 0 finishes alone.
  EXPECT_EQ(order, (std::vector<std::size_t>{0, 0, 0, 2, 0, 0, 0}));
  EXPECT_EQ(out.back().end, 700 * kMs);
}

TEST(LinkChannelHalfDuplex, TransmittingCoversExactlyTheTimeOnTheAir) {
  TestChannel c(2, 50, half_duplex(0));
  ASSERT_TRUE(offer(c, 10 * kMs, 0, 100 * kMs));
  EXPECT_FALSE(c.transmitting(0, 5 * kMs));
  EXPECT_TRUE(c.transmitting(0, 10 * kMs));
  EXPECT_FALSE(c.transmitting(1, 50 * kMs));
  EXPECT_TRUE(c.transmitting(0, 109 * kMs));
  EXPECT_FALSE(c.transmitting(0, 110 * kMs));
}

TEST(LinkChannel, RejectsNegativeTurnaround) {
  EXPECT_THROW(TestChannel(2, 50, half_duplex(-1)), std::invalid_argument);
}

TEST(TransmitTime, RoundsUpToWholeUnits) {
  EXPECT_EQ(transmit_time(200, 256'000, kSecond), 6'250'000);
  EXPECT_EQ(transmit_time(1, 3, kSecond), 2'666'666'667);
  EXPECT_EQ(transmit_time(1500, 1'000'000'000, kSecond), 12'000);
  EXPECT_EQ(transmit_time(128, 1'000'000, 1'000'000), 1024);  // microseconds, as the simulator counts
  EXPECT_EQ(transmit_time(1, 3, 1'000'000), 2'666'667);
}

}  // namespace
}  // namespace dissem::link::link_channel_test
