// Rate adaptation on the simulated medium: a radio that slows to an eighth
// of its rate for 10 s, behind a 4-datagram drop-tail queue that accepts
// whatever the host sends (seed 000, experiment 4, in virtual time). The
// host is never told; only the round trips of its beacon echoes show it.
#include <gtest/gtest.h>

#include <map>

#include "sim/simulation.h"
#include "support/lossy_baseline.h"

using namespace dissem;
using namespace dissem::sim;

namespace rate_adaptation_sim_test {
namespace {

constexpr std::uint64_t kFast = 327'680;  // 40 KB/s
constexpr std::uint64_t kSlow = 40'960;   // 5 KB/s
constexpr Micros kDipStart = 20 * kSeconds;
constexpr Micros kDipEnd = 30 * kSeconds;
constexpr Micros kStreamEnd = 40 * kSeconds;
const std::string kGroup = "bft";

struct Outcome {
  double dip_mean_ms = 0;   // latency of the updates produced in the dip and received
  double late_dip_mean_ms = 0;  // ... in its second half, once the sender could have followed
  double calm_mean_ms = 0;  // ... produced before it
  std::size_t dip_received = 0;
  std::uint64_t queue_drops = 0;
  std::uint64_t decreases = 0;
};

// Ten 1 KB updates a second (10 KB/s), each replacing the older ones still
// waiting (one tag for the stream, as the paper's position updates).
Outcome run(bool adaptation, bool dip) {
  MediumConfig m;
  m.queue_packets = 4;
  m.radio_backpressure = false;
  Simulation sim(11, m);
  engine::EngineConfig c;
  c.link_capacity_bps = kFast * 95 / 100;
  c.rate_adaptation = adaptation;
  sim.add_node(c, kFast);
  sim.add_node(c, kFast);
  sim.set_all_links(LinkParams{1.0, 2 * kMillis, 0, true});
  sim.subscribe(1, kGroup);
  std::map<std::uint64_t, Micros> produced;
  for (Micros t = 2 * kSeconds; t < kStreamEnd; t += 100 * kMillis) {
    sim.at(t, [&produced](Simulation& s) {
      engine::PublishRequest r;
      r.group = kGroup;
      r.payload.assign(1000, static_cast<std::uint8_t>(s.now() / kMillis));
      r.tag = "position";
      r.replace = true;
      produced[s.publish(0, r).seq] = s.now();
    });
  }
  if (dip) {
    sim.at(kDipStart, [](Simulation& s) { s.set_capacity(0, kSlow); });
    sim.at(kDipEnd, [](Simulation& s) { s.set_capacity(0, kFast); });
  }
  sim.run_until(kStreamEnd + 5 * kSeconds);

  Outcome o;
  double dip_sum = 0, late_sum = 0, calm_sum = 0;
  std::size_t late = 0, calm = 0;
  for (const auto& d : sim.deliveries(1)) {
    const Micros at = produced.at(d.delivery.meta.id.seq);
    const double ms = static_cast<double>(d.received_at - at) / 1000.0;
    if (at >= kDipStart && at < kDipEnd) {
      dip_sum += ms;
      ++o.dip_received;
      if (at >= (kDipStart + kDipEnd) / 2) {
        late_sum += ms;
        ++late;
      }
    } else if (at < kDipStart && at >= 5 * kSeconds) {
      calm_sum += ms;
      ++calm;
    }
  }
  o.dip_mean_ms = o.dip_received ? dip_sum / static_cast<double>(o.dip_received) : 0;
  o.late_dip_mean_ms = late ? late_sum / static_cast<double>(late) : 0;
  o.calm_mean_ms = calm ? calm_sum / static_cast<double>(calm) : 0;
  o.queue_drops = sim.medium().nodes[0].queue_dropped.datagrams;
  o.decreases = sim.node(0).stats().rate_decreases;
  return o;
}

}  // namespace

TEST(RateAdaptationSim, ARadioThatSlowsDownIsFollowedAndItsQueueStopsDropping) {
  const Outcome off = run(false, true);
  const Outcome on = run(true, true);
  RecordProperty("dip_mean_ms_off", std::to_string(off.dip_mean_ms));
  RecordProperty("dip_mean_ms_on", std::to_string(on.dip_mean_ms));
  std::printf(
      "dip: mean %.0f ms (second half %.0f), %zu received, %llu queue drops without adaptation; "
      "%.0f ms (%.0f), %zu, %llu (%llu decreases) with; before the dip %.1f / %.1f ms\n",
      off.dip_mean_ms, off.late_dip_mean_ms, off.dip_received, static_cast<unsigned long long>(off.queue_drops),
      on.dip_mean_ms, on.late_dip_mean_ms, on.dip_received, static_cast<unsigned long long>(on.queue_drops),
      static_cast<unsigned long long>(on.decreases), off.calm_mean_ms, on.calm_mean_ms);
  EXPECT_EQ(off.decreases, 0u);
  EXPECT_GE(on.decreases, 1u);
  ASSERT_GT(off.dip_received, 0u);
  ASSERT_GT(on.dip_received, 0u);
  EXPECT_LT(on.queue_drops * 2, off.queue_drops) << "the radio's queue overflows far less once the pace follows it";
  // Detection takes a beacon or two; from then on updates no longer wait
  // behind a full queue (at 5 KB/s a 1 KB update alone takes 200 ms).
  EXPECT_LT(on.late_dip_mean_ms, 0.5 * off.late_dip_mean_ms);
  EXPECT_LT(on.dip_mean_ms, 0.8 * off.dip_mean_ms);
}

TEST(RateAdaptationSim, ASteadyLinkIsNeverSlowedDown) {
  const Outcome on = run(true, false);
  EXPECT_EQ(on.decreases, 0u);
  EXPECT_EQ(on.queue_drops, 0u);
  const Outcome off = run(false, false);
  // Without a queue nothing is cut; the echoes' received-rate field adds a
  // few bytes to the client's beacons, nothing more.
  EXPECT_NEAR(on.calm_mean_ms, off.calm_mean_ms, 0.01 * off.calm_mean_ms);
}

// Receivers that hear a sender at full rate pace at the channel's floor
// until they see their radios are their own, and every datagram they send
// then holds their next beacon back for up to a second. Built when due,
// that beacon's echoes would carry hold times short of its stay, and the
// sender would take the difference for a queue of its own. Built as it
// leaves (node_send.cpp), it is no evidence: on steady lossy links the
// transfer takes as long with adaptation on as off.
TEST(RateAdaptationSim, EchoesFromBeaconsThatWaitedInTheirNodesPacerAreNoQueue) {
  double on = 0;
  double off = 0;
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const BaselineResult with = test::run_lossy_baseline(seed, {"rate_adaptation=true"});
    const BaselineResult without = test::run_lossy_baseline(seed, {"rate_adaptation=false"});
    ASSERT_TRUE(with.run.all_complete && without.run.all_complete);
    on += static_cast<double>(with.run.finished_at) / 1e6;
    off += static_cast<double>(without.run.finished_at) / 1e6;
  }
  std::printf("1 -> 3 at 256 kbit/s, 70 %%, 5 seeds: %.1f s with rate adaptation, %.1f s without\n", on, off);
  EXPECT_LT(on, 1.02 * off);
}

}  // namespace rate_adaptation_sim_test
