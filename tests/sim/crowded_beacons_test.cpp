// Beacons in a crowd: twenty-one nodes on one shared channel. Each node's
// beacons take only its part of half the control share (the nodes it hears
// beacon on the same air), echoes go to a few peers a beacon in turn (a
// beacon does not grow with the neighbourhood), and peers whose beacons are
// spaced out that far are neither forgotten between beacons nor counted as
// losing them.
#include <gtest/gtest.h>

#include <algorithm>

#include "engine/beacons.h"
#include "engine/link_timers.h"
#include "sim/simulation.h"

using namespace dissem;
using namespace dissem::sim;

namespace crowded_beacons_test {
namespace {

constexpr std::uint64_t kCapacity = 256 * 1024;
constexpr std::size_t kNodes = 21;
constexpr Micros kRun = 180 * kSeconds;

engine::EngineConfig config() {
  engine::EngineConfig c;
  c.link_capacity_bps = kCapacity;
  return c;
}

}  // namespace

TEST(CrowdedBeacons, TwentyOneNodesOnOneChannelKeepTheirBeaconsWithinTheControlShare) {
  MediumConfig medium;
  medium.shared_channel = true;
  Simulation sim(11, medium);
  for (std::size_t i = 0; i < kNodes; ++i) sim.add_node(config(), kCapacity);
  sim.set_all_links(LinkParams{0.9, 1 * kMillis, 0, true});
  sim.run_until(kRun);

  // All beacons together within half the control share of the one channel
  // (the first period, before anyone is heard, at the configured pace).
  const engine::EngineConfig c = engine::with_link_timers(config());
  const double share_bytes_per_s = c.control_share / 2.0 * static_cast<double>(kCapacity) / 8.0;
  const auto& total = sim.medium().total;
  const double beacon_bytes = static_cast<double>(total.on_air_bytes(engine::TrafficKind::Beacon)) +
                              static_cast<double>(total.on_air[static_cast<std::size_t>(engine::TrafficKind::Beacon)].datagrams) *
                                  medium.per_packet_overhead;
  const double per_s = beacon_bytes / static_cast<double>(kRun / kSeconds);
  EXPECT_LT(per_s, 1.3 * share_bytes_per_s) << "all beacons on the channel, bytes per second";
  // One beacon echoes at most kEchoesPerBeacon peers, so it stays small.
  const auto& beacons = total.on_air[static_cast<std::size_t>(engine::TrafficKind::Beacon)];
  ASSERT_GT(beacons.datagrams, kNodes * 10);
  const double mean_size = static_cast<double>(beacons.bytes) / static_cast<double>(beacons.datagrams);
  EXPECT_LT(mean_size, 60.0 + engine::kEchoesPerBeacon * 24.0) << "bytes per beacon";

  // Nobody forgot anybody between those sparser beacons, echoes reached
  // every peer in turn (every round trip measured), and the spaced-out
  // beacons are not mistaken for lost ones: the links lose 10 %, and what
  // the nodes estimate from a few dozen beacons each is about that.
  double loss_sum = 0;
  std::size_t loss_count = 0;
  for (std::size_t i = 0; i < kNodes; ++i) {
    const auto links = sim.node(i).links(sim.engine_now());
    ASSERT_EQ(links.size(), kNodes - 1) << "node " << i;
    for (const auto& l : links) {
      EXPECT_GT(l.srtt, 0) << "node " << i << " peer " << l.node;
      ASSERT_TRUE(l.loss_in.has_value()) << "node " << i << " peer " << l.node;
      EXPECT_LT(*l.loss_in, 0.4) << "node " << i << " peer " << l.node;
      loss_sum += *l.loss_in;
      ++loss_count;
    }
  }
  EXPECT_NEAR(loss_sum / static_cast<double>(loss_count), 0.10, 0.04) << "mean estimated loss";
}

}  // namespace crowded_beacons_test
