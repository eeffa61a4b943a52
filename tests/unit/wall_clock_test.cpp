// The node's wall time against its host's system clock (engine/wall_clock.h):
// small differences followed, steps slewed at 1 % unless the neighbours
// side with the system clock, wall time never going back on a slew.
#include "engine/wall_clock.h"

#include <gtest/gtest.h>

#include "support/test_time.h"

namespace dissem::engine::wall_clock_test {
namespace {

using dissem::test::kT0;
constexpr Micros kHour = 3600 * kSeconds;

TEST(WallClock, FollowsTheSystemClockWhileItOnlyDriftsOrIsSlewed) {
  WallClock c;
  EXPECT_FALSE(c.on_system_clock(kT0, kT0, std::nullopt));
  EXPECT_EQ(c.wall(kT0), kT0);
  // NTP slews the system clock 300 ms over a minute: followed as it goes.
  EXPECT_FALSE(c.on_system_clock(kT0 + 60 * kSeconds + 300 * kMillis, kT0 + 60 * kSeconds, std::nullopt));
  EXPECT_EQ(c.wall(kT0 + 60 * kSeconds), kT0 + 60 * kSeconds + 300 * kMillis);
  EXPECT_EQ(c.divergence(), 0);
  EXPECT_EQ(c.steps(), 0);
}

TEST(WallClock, AStepAheadWithNoNeighbourIsSlewedAtOnePercentAndReportedOnce) {
  WallClock c;
  c.on_system_clock(kT0, kT0, std::nullopt);
  const auto step = c.on_system_clock(kT0 + kSeconds + kHour, kT0 + kSeconds, std::nullopt);
  ASSERT_TRUE(step);
  EXPECT_FALSE(step->adopted);
  EXPECT_EQ(step->divergence, kHour);
  EXPECT_NE(step->detail.find("+3600.0 s"), std::string::npos) << step->detail;
  EXPECT_NE(step->detail.find("no neighbour"), std::string::npos) << step->detail;
  // Ten minutes later the wall time is 6 s ahead of `now`, not an hour.
  Micros now = kT0 + kSeconds;
  for (int i = 0; i < 600; ++i) {
    now += kSeconds;
    EXPECT_FALSE(c.on_system_clock(now + kHour, now, std::nullopt)) << "one event per step";
  }
  EXPECT_NEAR(static_cast<double>(c.wall(now) - now), 6.0 * kSeconds, 0.02 * kSeconds);
  EXPECT_NEAR(static_cast<double>(c.divergence()), static_cast<double>(kHour - 6 * kSeconds), 0.02 * kSeconds);
  EXPECT_EQ(c.steps(), 1);
}

TEST(WallClock, AStepBackNeverTakesTheWallTimeBackwards) {
  WallClock c;
  c.on_system_clock(kT0, kT0, std::nullopt);
  Micros now = kT0;
  Micros last_wall = c.wall(now);
  ASSERT_TRUE(c.on_system_clock(now + 100 * kMillis - kHour, now + 100 * kMillis, std::nullopt));
  for (int i = 0; i < 1000; ++i) {
    now += 100 * kMillis;
    c.on_system_clock(now - kHour, now, std::nullopt);
    EXPECT_GT(c.wall(now), last_wall) << "at step " << i;
    // 99 % of the time that passed, at least.
    EXPECT_GE(c.wall(now) - last_wall, 99 * kMillis - 1);
    last_wall = c.wall(now);
  }
}

TEST(WallClock, NeighboursThatSideWithTheSystemClockMakeAStepACorrectionTakenAtOnce) {
  WallClock c;
  c.on_system_clock(kT0, kT0, std::nullopt);
  // Our clock was an hour behind; the neighbours' clocks are an hour ahead of
  // our wall time, and the system clock is now set right.
  const auto step = c.on_system_clock(kT0 + kSeconds + kHour, kT0 + kSeconds, kHour + 20 * kMillis);
  ASSERT_TRUE(step);
  EXPECT_TRUE(step->adopted);
  EXPECT_EQ(c.wall(kT0 + kSeconds), kT0 + kSeconds + kHour);
  EXPECT_EQ(c.divergence(), 0);
  EXPECT_NE(step->detail.find("followed at once"), std::string::npos) << step->detail;
}

TEST(WallClock, NeighboursThatSideWithOurTimeKeepItAndTheStepIsSlewed) {
  WallClock c;
  c.on_system_clock(kT0, kT0, std::nullopt);
  const auto step = c.on_system_clock(kT0 + kSeconds - kHour, kT0 + kSeconds, 15 * kMillis);
  ASSERT_TRUE(step);
  EXPECT_FALSE(step->adopted);
  EXPECT_NE(step->detail.find("agree with dissem's time"), std::string::npos) << step->detail;
  // The second since the last report is slewed: 10 ms towards the step.
  EXPECT_EQ(c.wall(kT0 + kSeconds), kT0 + kSeconds - 10 * kMillis);
}

// A clock whose system clock stepped an hour ahead at kT0 + 1 s and that has
// slewed since; `now` ends `slewed_for` later.
WallClock stepped_an_hour_ahead(Micros& now, Micros slewed_for) {
  WallClock c;
  c.on_system_clock(kT0, kT0, std::nullopt);
  now = kT0 + kSeconds;
  EXPECT_TRUE(c.on_system_clock(now + kHour, now, std::nullopt));
  now += slewed_for;
  EXPECT_FALSE(c.on_system_clock(now + kHour, now, std::nullopt));
  return c;
}

TEST(WallClock, ASecondStepDuringASlewIsReportedAndTheClockSetBackEndsTheSlew) {
  Micros now = 0;
  WallClock c = stepped_an_hour_ahead(now, 100 * kSeconds);
  const Micros slewed = c.wall(now) - now;
  EXPECT_NEAR(static_cast<double>(slewed), 1.01 * kSeconds, 1000.0);  // 1 % of 101 s
  // Set back by the hour: within a second of our wall time again, followed.
  now += kSeconds;
  EXPECT_FALSE(c.on_system_clock(now + slewed, now, std::nullopt));
  EXPECT_EQ(c.divergence(), 0);
  // And a step the other way while slewing is a new step.
  ASSERT_TRUE(c.on_system_clock(now + kSeconds + kHour, now + kSeconds, std::nullopt));
  now += 2 * kSeconds;
  ASSERT_TRUE(c.on_system_clock(now - kHour, now, std::nullopt)) << "the system clock jumped again mid-slew";
  EXPECT_EQ(c.steps(), 3);
}

TEST(WallClock, NeighboursMeasuredDuringASlewThatAgreeWithTheSystemClockEndItAtOnce) {
  Micros now = 0;
  WallClock c = stepped_an_hour_ahead(now, 10 * kSeconds);
  ASSERT_GT(c.divergence(), kHour - kSeconds);
  // A neighbour's clock, now measured, is where the system clock is.
  const Micros neighbour = kHour - (c.wall(now) - now);
  const auto step = c.on_system_clock(now + kHour, now, neighbour);
  ASSERT_TRUE(step);
  EXPECT_TRUE(step->adopted);
  EXPECT_EQ(c.wall(now), now + kHour);
  EXPECT_EQ(c.divergence(), 0);
  EXPECT_EQ(c.steps(), 2);
}

}  // namespace
}  // namespace dissem::engine::wall_clock_test
