// A newcomer on a slow link (Beacons::greet): beacons that say nothing new
// back off to 16 periods there (over three minutes at 2,400 bit/s, hours at
// 75), so a node that comes up beside quiet neighbours would not hear them
// for that long. A neighbour that hears a new peer whose beacon does not
// echo its own answers within a quarter period; invented ids cannot make it
// beacon faster than once a period.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "sim/simulation.h"
#include "wire/codec.h"

using namespace dissem;
using namespace dissem::sim;

namespace newcomer_greeting_test {
namespace {

constexpr std::uint64_t kHfBps = 2'400;
constexpr Micros kQuietFor = 400 * kSeconds;  // the first node's beacons have backed off by then

engine::EngineConfig hf_config() {
  engine::EngineConfig c;
  c.link_capacity_bps = kHfBps;
  return c;
}

bool hears(const engine::Node& n, NodeId id) {
  const auto peers = n.peers();
  return std::any_of(peers.begin(), peers.end(), [id](const auto& p) { return p.node == id; });
}

std::uint64_t beacons_sent(const engine::Node& n) {
  return n.stats().sent[static_cast<std::size_t>(engine::TrafficKind::Beacon)].datagrams;
}

}  // namespace

TEST(NewcomerGreeting, ANodeComingUpBesideQuietNeighboursHearsThemWithinAQuarterPeriod) {
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    Simulation sim(seed);
    sim.set_all_links(LinkParams{1.0, 1 * kMillis, 0, true});
    const std::size_t old_timer = sim.add_node(hf_config(), kHfBps);
    const NodeId old_id = sim.node(old_timer).config().node_id;
    sim.run_until(kQuietFor);
    const std::size_t newcomer = sim.add_node(hf_config(), kHfBps);
    const Micros period = sim.node(newcomer).config().beacon_interval;
    ASSERT_GT(period, 10 * kSeconds) << "a slow link: quiet beacons back off";
    // The newcomer's first beacon within a quarter period, the answer within
    // another: each a fraction of a second on the air.
    const Micros limit = kQuietFor + period / 2 + 2 * kSeconds;
    const bool heard = sim.run_until([&](const Simulation& s) { return hears(s.node(newcomer), old_id); }, limit);
    std::printf("seed %llu: the newcomer heard its neighbour %.1f s after it came up (period %.1f s)\n",
                static_cast<unsigned long long>(seed), static_cast<double>(sim.now() - kQuietFor) / 1e6,
                static_cast<double>(period) / 1e6);
    EXPECT_TRUE(heard) << "seed " << seed << ": the quiet neighbour did not answer within "
                       << (limit - kQuietFor) / kMillis << " ms";
  }
}

TEST(NewcomerGreeting, InventedIdsCannotMakeANodeBeaconFasterThanOnceAPeriod) {
  Simulation sim(7);
  const std::size_t a = sim.add_node(hf_config(), kHfBps);
  const Micros period = sim.node(a).config().beacon_interval;
  sim.run_until(kQuietFor);
  const std::uint64_t before = beacons_sent(sim.node(a));
  // A new invented id every second for 20 periods, none echoing the node.
  const Micros flood = 20 * period;
  const auto seconds = static_cast<std::uint32_t>(flood / kSeconds);
  for (std::uint32_t i = 0; i < seconds; ++i) {
    sim.at(kQuietFor + i * kSeconds, [a, i](Simulation& s) {
      wire::Beacon b;
      b.set_node(0x7000'0000u + i);
      b.set_sent_us(1);
      b.set_seq(1);
      s.with_node(a, [&](engine::Node& n, Micros now) { n.on_datagram(wire::encode(b), now); });
    });
  }
  sim.run_until(kQuietFor + flood);
  const std::uint64_t sent = beacons_sent(sim.node(a)) - before;
  std::printf("%u invented newcomers in %.0f s: %llu beacons (period %.1f s)\n", seconds,
              static_cast<double>(flood) / 1e6, static_cast<unsigned long long>(sent),
              static_cast<double>(period) / 1e6);
  EXPECT_GE(sent, 10u) << "newcomers are greeted";
  EXPECT_LE(sent, 21u) << "at most one beacon a period, whatever the flood";
}

}  // namespace newcomer_greeting_test
