#include <gtest/gtest.h>

#include "engine/rate_adaptation.h"

using namespace dissem;
using namespace dissem::engine;

namespace rate_adaptation_test {
namespace {

constexpr std::uint64_t kNominal = 320'000;  // bit/s
constexpr Micros kBase = 10 * kMillis;
constexpr Micros kSlack = 50 * kMillis;

// An echo of our beacon sent at `sent`, giving round trip `rtt`, held
// `held` by the neighbour before it built the echoing beacon.
EchoReport echo(Micros sent, std::optional<Micros> rtt, double usual_loss = 0.0, Micros held = 0) {
  EchoReport e;
  e.echoed_stamp = static_cast<std::uint64_t>(sent);
  e.held = held;
  e.rtt = rtt;
  e.base_rtt = kBase;
  e.usual_loss = usual_loss;
  e.slack = kSlack;
  return e;
}

// A beacon stamped and sent at `t`.
void beacon(RateAdaptation& a, Micros t) {
  a.on_beacon_built(static_cast<std::uint64_t>(t), t);
  a.on_beacon_sent(t);
}

// What we sent: `bps` (IP bits per second) over the second before `now`.
void load(RateAdaptation& a, double bps, Micros now) {
  for (int i = 0; i < 10; ++i) a.on_sent(static_cast<std::size_t>(bps / 80.0), now - i * 90 * kMillis);
}

}  // namespace

TEST(RateAdaptation, SamplesWithinTheMarginLeaveTheNominalRate) {
  RateAdaptation a(kNominal, {});
  for (Micros t = kSeconds; t <= 10 * kSeconds; t += kSeconds) {
    beacon(a, t);
    a.on_echo(echo(t, kBase + 90 * kMillis), t + 100 * kMillis);
  }
  EXPECT_EQ(a.cap_bps(11 * kSeconds), kNominal);
  EXPECT_EQ(a.decreases(), 0u);
}

TEST(RateAdaptation, AStandingQueueLowersThePaceBelowWhatWasSent) {
  RateAdaptation a(kNominal, {});
  beacon(a, 1 * kSeconds);
  // 800 ms of queue: we sent 80 kbit/s into a link that carries 40. With no
  // growth known yet, the cut drains it within a second, at most halving.
  load(a, 80'000, 1810 * kMillis);
  a.on_echo(echo(1 * kSeconds, 810 * kMillis), 1810 * kMillis);
  EXPECT_EQ(a.decreases(), 1u);
  EXPECT_EQ(a.cap_bps(2 * kSeconds), 40'000u) << "half of what was sent, not half of the nominal rate";
  // A beacon sent before the cut took effect says nothing about the new pace.
  beacon(a, 1850 * kMillis);
  a.on_echo(echo(1850 * kMillis, 800 * kMillis), 2650 * kMillis);
  EXPECT_EQ(a.decreases(), 1u);
  // One sent later says the queue still stands (shrinking too slowly to be
  // gone within the longest horizon): lower again, below the cap.
  beacon(a, 3 * kSeconds);
  load(a, 80'000, 3700 * kMillis);
  a.on_echo(echo(3 * kSeconds, 700 * kMillis), 3700 * kMillis);
  EXPECT_EQ(a.decreases(), 2u);
  EXPECT_LT(a.cap_bps(4 * kSeconds), 40'000u);
  EXPECT_GT(a.cap_bps(4 * kSeconds), 30'000u) << "a queue that is no longer growing is drained gently";
}

TEST(RateAdaptation, AQueueThatGrewInASecondIsCutToTheLinkAtOnce) {
  RateAdaptation a(kNominal, {});
  beacon(a, 1 * kSeconds);
  a.on_echo(echo(1 * kSeconds, kBase), 1010 * kMillis);  // no queue
  load(a, 80'000, 2 * kSeconds);                          // 10 KB in the second after
  beacon(a, 2 * kSeconds);
  load(a, 80'000, 2710 * kMillis);
  // 700 ms of queue gained in a second: the link carried 80 / 1.7 = 47 kbit/s.
  a.on_echo(echo(2 * kSeconds, kBase + 700 * kMillis), 2710 * kMillis);
  EXPECT_EQ(a.decreases(), 1u);
  EXPECT_NEAR(static_cast<double>(a.cap_bps(3 * kSeconds)), 0.5 * 80'000 / 1.7, 2.0)
      << "to the link's rate from the growth, less half to drain what stands";
}

TEST(RateAdaptation, AQueueThatCreepsUpIsCutGently) {
  RateAdaptation a(kNominal, {});
  beacon(a, 1 * kSeconds);
  a.on_echo(echo(1 * kSeconds, kBase + 50 * kMillis), 1060 * kMillis);  // within the margin
  load(a, 100'000, 2 * kSeconds);
  load(a, 100'000, 3 * kSeconds);
  load(a, 100'000, 4 * kSeconds);
  beacon(a, 4 * kSeconds);
  load(a, 100'000, 4210 * kMillis);  // and on: the last second's rate is not the binding figure
  // 150 ms more in 3 s: the link carries 1/1.05 of the 100 kbit/s that went
  // in; the queue took 4 s to build and gets as long to drain.
  a.on_echo(echo(4 * kSeconds, kBase + 200 * kMillis), 4210 * kMillis);
  EXPECT_EQ(a.decreases(), 1u);
  EXPECT_NEAR(static_cast<double>(a.cap_bps(4210 * kMillis)), 100'000 / 1.05 * (1 - 0.2 / 4), 2.0)
      << "a fixed 0.7 would have cut to 70 kbit/s";
}

TEST(RateAdaptation, AQueueThatShrinksByItselfIsNotCut) {
  RateAdaptation a(kNominal, {});
  beacon(a, 1 * kSeconds);
  load(a, 100'000, 1 * kSeconds);
  a.on_echo(echo(1 * kSeconds, kBase + 800 * kMillis), 1810 * kMillis);
  ASSERT_EQ(a.decreases(), 1u);
  const auto cap = a.cap_bps(2 * kSeconds);
  load(a, 50'000, 3 * kSeconds);
  beacon(a, 3 * kSeconds);
  // 800 ms to 200 ms in 2 s: gone within the next second by itself.
  a.on_echo(echo(3 * kSeconds, kBase + 200 * kMillis), 3210 * kMillis);
  EXPECT_EQ(a.decreases(), 1u);
  EXPECT_EQ(a.cap_bps(3210 * kMillis), cap) << "evidence still: no increase either";
}

TEST(RateAdaptation, TheCutStartsFromWhatTheNeighbourSaysItReceived) {
  RateAdaptation a(kNominal, {});
  beacon(a, 1 * kSeconds);
  load(a, 80'000, 2 * kSeconds);
  EchoReport e = echo(1 * kSeconds, 1 * kSeconds);
  e.delivered_bps = 40'000;  // the link carried half of what went into its queue
  a.on_echo(e, 2 * kSeconds);
  EXPECT_EQ(a.cap_bps(2 * kSeconds), 20'000u) << "below what the link carries, so its queue drains";
}

TEST(RateAdaptation, BeaconsThatNeverArriveOnACleanLinkAreAQueueThatDrops) {
  RateAdaptation a(kNominal, {});
  beacon(a, 1 * kSeconds);
  a.on_echo(echo(1 * kSeconds, kBase), 1010 * kMillis);
  // Beacons at 2 s and 3 s vanish; the neighbour keeps echoing the one at 1 s.
  beacon(a, 2 * kSeconds);
  a.on_echo(echo(1 * kSeconds, std::nullopt, 0.0, 1400 * kMillis), 2500 * kMillis);
  EXPECT_EQ(a.decreases(), 0u) << "one missing beacon is no run";
  beacon(a, 3 * kSeconds);
  a.on_echo(echo(1 * kSeconds, std::nullopt, 0.0, 2000 * kMillis), 3050 * kMillis);
  EXPECT_EQ(a.decreases(), 0u) << "the beacon at 3 s had no time to arrive before the echo was built";
  // The same, built 3.45 s in but arriving late (it waited behind the
  // neighbour's data): its arrival says nothing the build time does not.
  a.on_echo(echo(1 * kSeconds, std::nullopt, 0.0, 2000 * kMillis), 3600 * kMillis);
  EXPECT_EQ(a.decreases(), 0u);
  load(a, 80'000, 3700 * kMillis);
  a.on_echo(echo(1 * kSeconds, std::nullopt, 0.0, 2450 * kMillis), 3700 * kMillis);
  EXPECT_EQ(a.decreases(), 1u);
  // No queue measured since: the margin's (100 ms) drained within a second.
  EXPECT_EQ(a.cap_bps(4 * kSeconds), 72'000u);
}

TEST(RateAdaptation, MissingBeaconsOnALinkThatUsuallyLosesThemMeanNothing) {
  EXPECT_EQ(RateAdaptation::run_needed(0.0), 2u);
  EXPECT_EQ(RateAdaptation::run_needed(0.1), 2u);
  EXPECT_EQ(RateAdaptation::run_needed(0.5), 7u);
  EXPECT_EQ(RateAdaptation::run_needed(0.8), 0u) << "no run is significant";
  RateAdaptation a(kNominal, {});
  beacon(a, 1 * kSeconds);
  for (Micros t = 2 * kSeconds; t <= 6 * kSeconds; t += kSeconds) beacon(a, t);
  a.on_echo(echo(1 * kSeconds, std::nullopt, 0.5, 5900 * kMillis), 7 * kSeconds);
  EXPECT_EQ(a.decreases(), 0u) << "five in a row at 50 % usual loss happen 3 % of the time";
  beacon(a, 7 * kSeconds);
  beacon(a, 8 * kSeconds);
  a.on_echo(echo(1 * kSeconds, std::nullopt, 0.5, 7900 * kMillis), 9 * kSeconds);
  EXPECT_EQ(a.decreases(), 1u) << "seven: under 1 %";
}

TEST(RateAdaptation, QuietEchoesRaiseThePaceBackToNominalOncePerInterval) {
  RateAdaptation a(kNominal, {});
  beacon(a, 0);
  load(a, 64'000, 2 * kSeconds);
  a.on_echo(echo(0, 2 * kSeconds), 2 * kSeconds);
  ASSERT_EQ(a.cap_bps(2 * kSeconds), 32'000u);
  a.on_echo(echo(0, kBase), 3 * kSeconds);
  EXPECT_EQ(a.cap_bps(3 * kSeconds), 64'000u) << "the queue is gone: back to what the link carried at once";
  a.on_echo(echo(0, kBase), 3 * kSeconds + 1);
  EXPECT_EQ(a.cap_bps(3 * kSeconds + 1), 64'000u) << "a second neighbour's echo in the same interval adds nothing";
  a.on_echo(echo(0, kBase), 4 * kSeconds);
  EXPECT_EQ(a.cap_bps(4 * kSeconds), 80'000u);
  a.on_echo(echo(0, kBase), 5 * kSeconds);
  EXPECT_EQ(a.cap_bps(5 * kSeconds), 100'000u);
  a.on_echo(echo(0, kBase), 6 * kSeconds);
  EXPECT_EQ(a.cap_bps(6 * kSeconds), 150'000u) << "quiet after quiet: larger steps";
  a.on_echo(echo(0, kBase), 7 * kSeconds);
  EXPECT_EQ(a.cap_bps(7 * kSeconds), 300'000u);
  for (Micros t = 8 * kSeconds; t < 20 * kSeconds; t += kSeconds) a.on_echo(echo(0, kBase), t);
  EXPECT_EQ(a.cap_bps(20 * kSeconds), kNominal) << "never above the nominal rate";
}

TEST(RateAdaptation, TheCapIsLiftedWhenNoNeighbourReportsAQueueForTheRecoveryTime) {
  RateAdaptationParams p;
  p.recovery = 30 * kSeconds;
  RateAdaptation a(kNominal, p);
  beacon(a, 0);
  a.on_echo(echo(0, 2 * kSeconds), 2 * kSeconds);
  EXPECT_LT(a.cap_bps(31 * kSeconds), kNominal);
  EXPECT_EQ(a.cap_bps(33 * kSeconds), kNominal) << "a neighbour that stopped echoing cannot hold us down";
}

TEST(RateAdaptation, NeverBelowTheFloor) {
  RateAdaptationParams p;
  p.floor_fraction = 0.1;
  RateAdaptation a(kNominal, p);
  for (Micros t = 0; t < 200 * kSeconds; t += 10 * kSeconds) {
    beacon(a, t);
    a.on_echo(echo(t, 5 * kSeconds), t + 5 * kSeconds);
  }
  EXPECT_EQ(a.cap_bps(200 * kSeconds), kNominal / 10);
}

TEST(RateAdaptation, TheMarginIsAtLeastTheSlackAndTheBase) {
  RateAdaptation a(kNominal, {});
  beacon(a, 0);
  // A long base (a satellite hop, 600 ms): 1.1 s is within base + base.
  EchoReport e = echo(0, 1100 * kMillis);
  e.base_rtt = 600 * kMillis;
  a.on_echo(e, 1100 * kMillis);
  EXPECT_EQ(a.decreases(), 0u);
  // A slow link whose radio queue may hold a few datagrams: 3 s of slack.
  e = echo(0, 2900 * kMillis);
  e.slack = 3 * kSeconds;
  a.on_echo(e, 2900 * kMillis);
  EXPECT_EQ(a.decreases(), 0u);
  e.rtt = 3100 * kMillis;
  a.on_echo(e, 3100 * kMillis);
  EXPECT_EQ(a.decreases(), 1u);
}

TEST(RateAdaptation, OurOwnPacersWaitIsNoQueueAndARepeatedEchoIsNoSample) {
  RateAdaptation a(kNominal, {});
  a.on_beacon_built(1 * kSeconds, 1 * kSeconds);
  a.on_beacon_sent(1 * kSeconds + 400 * kMillis);  // behind a datagram at a low pace
  EXPECT_EQ(a.fresh_rtt(1 * kSeconds, 420 * kMillis), 20 * kMillis);
  EXPECT_EQ(a.fresh_rtt(1 * kSeconds, 420 * kMillis), std::nullopt) << "echoed again: nothing new";
  EXPECT_EQ(a.fresh_rtt(7, 30 * kMillis), 30 * kMillis) << "a stamp older than the history is taken as it is";
}

TEST(RateAdaptation, ARepeatedEchoRaisesNothing) {
  RateAdaptation a(kNominal, {});
  beacon(a, 0);
  load(a, 64'000, 2 * kSeconds);
  a.on_echo(echo(0, 2 * kSeconds), 2 * kSeconds);
  ASSERT_EQ(a.cap_bps(2 * kSeconds), 32'000u);
  a.on_echo(echo(0, std::nullopt), 3 * kSeconds);
  EXPECT_EQ(a.cap_bps(3 * kSeconds), 32'000u);
}

TEST(RateAdaptation, OffMeansOff) {
  RateAdaptationParams p;
  p.enabled = false;
  RateAdaptation a(kNominal, p);
  beacon(a, 0);
  a.on_echo(echo(0, 5 * kSeconds), 5 * kSeconds);
  EXPECT_EQ(a.cap_bps(5 * kSeconds), kNominal);
  EXPECT_EQ(a.decreases(), 0u);
}

}  // namespace rate_adaptation_test
