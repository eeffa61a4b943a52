// A neighbour's clock offset from beacon echoes (engine/clock_offset.h): the
// NTP-style estimate, the smallest-round-trip sample kept per peer, and the
// skew event raised once per crossing.
#include <gtest/gtest.h>

#include "engine/clock_offset.h"
#include "engine/peers.h"

namespace dissem::engine::clock_offset_test {
namespace {

// Our beacon leaves at t1 (our clock); it takes `there` to arrive; the peer,
// whose clock is `theta` ahead, holds it `held` and answers; its beacon takes
// `back` to reach us. What we compute from the four stamps.
Micros estimate(Micros theta, Micros there, Micros held, Micros back) {
  const Micros t1 = 1'000'000'000;
  const Micros t2 = t1 + there + theta;  // the peer's clock
  const Micros t3 = t2 + held;
  const Micros t4 = t3 + back - theta;   // ours again
  return clock_offset(t1, held, t3, t4);
}

TEST(ClockOffset, EqualDelaysGiveTheOffsetExactlyAndUnequalOnesHalfTheirDifference) {
  EXPECT_EQ(estimate(20 * kSeconds, 5'000, 300'000, 5'000), 20 * kSeconds);
  EXPECT_EQ(estimate(-3'600 * kSeconds, 40'000, 0, 40'000), -3'600 * kSeconds) << "an hour behind";
  EXPECT_EQ(estimate(0, 2'000, 1'000, 2'000), 0);
  // A queue of 100 ms on the way back only: off by half of it.
  EXPECT_EQ(estimate(0, 2'000, 1'000, 102'000), -50'000);
}

TEST(ClockOffset, ThePeerKeepsTheSampleWithTheSmallestRoundTripUntilItIsOld) {
  PeerTable peers;
  peers.heard(7, 0);
  EXPECT_FALSE(peers.all().at(7).clock_offset) << "unknown before any echo";
  peers.on_clock_sample(7, 1'000, 20'000, kSeconds, kClockWindow);
  peers.on_clock_sample(7, 9'000, 200'000, 2 * kSeconds, kClockWindow);  // a queued sample: ignored
  EXPECT_EQ(*peers.all().at(7).clock_offset, 1'000);
  peers.on_clock_sample(7, 1'500, 10'000, 3 * kSeconds, kClockWindow);   // better
  EXPECT_EQ(*peers.all().at(7).clock_offset, 1'500);
  peers.on_clock_sample(7, 60'000, 90'000, 3 * kSeconds + kClockWindow + 1, kClockWindow);  // the kept one is old
  EXPECT_EQ(*peers.all().at(7).clock_offset, 60'000) << "a clock that stepped shows within a window";
  peers.on_clock_sample(8, 5, 1'000, 0, kClockWindow);
  EXPECT_FALSE(peers.all().contains(8)) << "only known peers";
}

TEST(ClockOffset, ASkewEventIsRaisedOncePerCrossing) {
  bool reported = false;
  const Micros limit = 2 * kSeconds;
  EXPECT_FALSE(clock_skew_crossed(kSeconds, 0, limit, reported));
  EXPECT_TRUE(clock_skew_crossed(-5 * kSeconds, 0, limit, reported)) << "behind counts as well as ahead";
  EXPECT_FALSE(clock_skew_crossed(-5 * kSeconds, 0, limit, reported)) << "once, not per beacon";
  EXPECT_FALSE(clock_skew_crossed(1'500'000, 0, limit, reported)) << "hovering under the limit, above half";
  EXPECT_FALSE(clock_skew_crossed(3 * kSeconds, 0, limit, reported)) << "not yet back under half";
  EXPECT_FALSE(clock_skew_crossed(500'000, 0, limit, reported));
  EXPECT_TRUE(clock_skew_crossed(3 * kSeconds, 0, limit, reported)) << "a new crossing";
  bool slow = false;
  EXPECT_FALSE(clock_skew_crossed(3 * kSeconds, 2 * kSeconds, limit, slow))
      << "a 4 s round trip leaves 3 s within what one-sided queueing can fake";
  EXPECT_TRUE(clock_skew_crossed(5 * kSeconds, 2 * kSeconds, limit, slow));
  bool never = false;
  EXPECT_FALSE(clock_skew_crossed(3'600 * kSeconds, 0, 0, never)) << "limit 0: no events";
}

}  // namespace
}  // namespace dissem::engine::clock_offset_test
