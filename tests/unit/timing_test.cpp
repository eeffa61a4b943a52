// Protocol timers derived from the link (engine/timing.h): every value scales
// with the packet time and the RTT, with the documented floors and clamps.
#include "engine/timing.h"

#include <gtest/gtest.h>

namespace dissem::engine::timing_test {
namespace {

// 1 Mbit/s, 1400-byte payload, 28 bytes per datagram: (1400 + 48 + 28) * 8
// bits = 11,808 microseconds per full fragment.
EngineConfig one_megabit() {
  EngineConfig c;
  c.link_capacity_bps = 1'000'000;
  c.payload_size = 1400;
  c.per_datagram_overhead = 28;
  c.serve_delay_max = 0;
  c.ntm_window = 0;
  return c;
}

constexpr Micros kPacket = 11'808;

TEST(Timing, DerivesEveryTimerFromPacketTimeAndRtt) {
  const Timing t = Timing::derive(one_megabit(), 100 * kMillis);
  EXPECT_EQ(t.packet_time, kPacket);
  EXPECT_EQ(t.rtt, 100 * kMillis);
  EXPECT_EQ(t.serve_delay_max, 3 * kPacket + 50 * kMillis) << "(2 + one server) packet times + rtt/2";
  EXPECT_DOUBLE_EQ(t.air_us_per_byte, 8.0);
  EXPECT_DOUBLE_EQ(t.drain_us_per_byte, 16.0) << "half the link rate";
  EXPECT_TRUE(t.ranked_answers);
  EXPECT_EQ(t.ntm_window, 2 * kSeconds) << "8 * (serve + rtt) is below the 2 s floor";
  EXPECT_EQ(t.request_round, 50 * kMillis + 2 * kPacket);
  EXPECT_EQ(t.request_backoff, t.serve_delay_max + 100 * kMillis + 2 * kPacket);
  EXPECT_EQ(t.tail_timeout, 100 * kMillis + 4 * kPacket);
  EXPECT_EQ(t.in_flight_slack, kPacket + 50 * kMillis);
}

TEST(Timing, PacketTimeScalesInverselyWithCapacity) {
  auto c = one_megabit();
  c.link_capacity_bps = 10'000'000;
  const Timing fast = Timing::derive(c, 100 * kMillis);
  EXPECT_EQ(fast.packet_time, kPacket / 10);  // 1180.8 truncated
  EXPECT_DOUBLE_EQ(fast.air_us_per_byte, 0.8);
  c.link_capacity_bps = 9'600;
  const Timing slow = Timing::derive(c, 100 * kMillis);
  EXPECT_EQ(slow.packet_time, 11'808 * kSeconds / 9'600);
  EXPECT_GT(slow.request_backoff, fast.request_backoff);
  // A larger payload or per-datagram overhead makes the frame longer.
  c = one_megabit();
  c.per_datagram_overhead = 28 + 125;
  EXPECT_EQ(Timing::derive(c, 100 * kMillis).packet_time, kPacket + kMillis);
}

TEST(Timing, ZeroCapacityIsTreatedAsOneBitPerSecondNotADivisionByZero) {
  auto c = one_megabit();
  c.link_capacity_bps = 0;
  const Timing t = Timing::derive(c, 100 * kMillis);
  EXPECT_EQ(t.packet_time, 11'808 * kSeconds);
  EXPECT_DOUBLE_EQ(t.air_us_per_byte, 8.0 * static_cast<double>(kSeconds));
  EXPECT_EQ(t.request_round, 2 * kSeconds) << "clamped at the ceiling";
  EXPECT_GT(t.ntm_window, 2 * kSeconds);
}

TEST(Timing, RttBelowOneMillisecondIsRaisedToIt) {
  for (const Micros rtt : {Micros{0}, Micros{-5 * kSeconds}, Micros{999}}) {
    const Timing t = Timing::derive(one_megabit(), rtt);
    EXPECT_EQ(t.rtt, kMillis) << rtt;
    EXPECT_EQ(t.serve_delay_max, 3 * kPacket + 500) << rtt;
    EXPECT_EQ(t.tail_timeout, kMillis + 4 * kPacket) << rtt;
  }
  EXPECT_EQ(Timing::derive(one_megabit(), 1001).rtt, 1001);
}

TEST(Timing, ServeWindowWidensWithThePeersHeard) {
  const Timing none = Timing::derive(one_megabit(), 100 * kMillis, 0);
  const Timing one = Timing::derive(one_megabit(), 100 * kMillis, 1);
  const Timing five = Timing::derive(one_megabit(), 100 * kMillis, 5);
  EXPECT_EQ(none.serve_delay_max, one.serve_delay_max) << "no peer heard counts as one server";
  EXPECT_EQ(five.serve_delay_max, 7 * kPacket + 50 * kMillis);
  // The backoff waits for the wider window too.
  EXPECT_EQ(five.request_backoff - one.request_backoff, 4 * kPacket);
}

TEST(Timing, ConfiguredServeDelayAndNtmWindowOverrideTheDerivedOnes) {
  auto c = one_megabit();
  c.serve_delay_max = 7 * kMillis;
  const Timing t = Timing::derive(c, 100 * kMillis, 50);
  EXPECT_EQ(t.serve_delay_max, 7 * kMillis) << "the peer count does not matter then";
  EXPECT_FALSE(t.ranked_answers) << "a configured delay means uniform delays";
  EXPECT_EQ(t.request_backoff, 7 * kMillis + 100 * kMillis + 2 * kPacket);
  c.ntm_window = 123 * kMillis;
  EXPECT_EQ(Timing::derive(c, 100 * kMillis).ntm_window, 123 * kMillis) << "even below the 2 s floor";
}

TEST(Timing, NtmWindowOutlastsAnyAnswersWaitOnSlowRoundTrips) {
  const Timing t = Timing::derive(one_megabit(), 1 * kSeconds);
  EXPECT_EQ(t.ntm_window, 8 * (t.serve_delay_max + t.rtt));
  EXPECT_GT(t.ntm_window, t.serve_delay_max + t.rtt);
}

TEST(Timing, RequestRoundIsClampedBetweenFiveMillisecondsAndTwoSeconds) {
  auto c = one_megabit();
  c.link_capacity_bps = 1'000'000'000;
  EXPECT_EQ(Timing::derive(c, 0).request_round, 5 * kMillis);
  EXPECT_EQ(Timing::derive(one_megabit(), 10 * kSeconds).request_round, 2 * kSeconds);
  // In between it follows the formula exactly.
  EXPECT_EQ(Timing::derive(one_megabit(), 20 * kMillis).request_round, 10 * kMillis + 2 * kPacket);
}

}  // namespace
}  // namespace dissem::engine::timing_test
