// Relay-set forwarding (E-CDS, controllers/forwarding/relay_set.h) when every
// node subscribes, where subscriber trees cannot prune: the 5x5 grid of
// `dissem-sim grid --subscribers all` and random geometric graphs of 50
// nodes of mean degree 9 (`dissem-sim geometric --nodes 50`), 80 % links,
// 20 messages, seeds 1-3, against flooding. Prints the README's measure
// (fragment transmissions, first pass + rebroadcasts + repairs, per
// delivered message, and its ratio to flooding) per seed and pooled, and the
// nodes that rebroadcast; asserts full delivery and fewer transmissions
// than flooding. The figures are fixed by the seeds.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "sim/experiments.h"
#include "sim/topologies.h"
#include "support/pooled_transmissions.h"

using namespace dissem;
using namespace dissem::sim;

namespace relay_set_sim_test {
namespace {

TopologyCommon common(const std::string& forwarding, std::uint64_t seed) {
  TopologyCommon c;
  c.seed = seed;
  c.reliability_pct = 80;
  c.messages = 20;
  c.duration = 300 * kSeconds;
  c.controllers.forwarding = forwarding;
  return c;
}

Scenario grid_all(const std::string& forwarding, std::uint64_t seed) {
  GridParams p;
  p.common = common(forwarding, seed);
  p.subscribers = GridSubscribers::All;
  return make_grid(p);
}

Scenario geometric_all(const std::string& forwarding, std::uint64_t seed) {
  GeometricParams p;
  p.common = common(forwarding, seed);
  p.nodes = 50;
  p.degree = 9;
  p.subscribers_pct = 100;
  return make_geometric(p);
}

using Totals = test::PooledTransmissions;

// Nodes that rebroadcast anything, and those that rebroadcast at least half
// the messages (the steady relays).
std::pair<std::size_t, std::size_t> rebroadcasting(const ScenarioResult& r, std::size_t messages) {
  std::size_t any = 0;
  std::size_t steady = 0;
  for (const auto& s : r.run.node_stats) {
    if (s.forwards_queued > 0) ++any;
    if (s.forwards_queued * 2 >= messages) ++steady;
  }
  return {any, steady};
}

template <typename Make>
Totals run_seeds(Make make, const std::string& forwarding, const char* label) {
  Totals t;
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const Scenario s = make(forwarding, seed);
    const auto r = run_scenario(s);
    EXPECT_TRUE(r.run.all_complete) << label << " " << forwarding << " seed " << seed;
    EXPECT_EQ(r.metrics.delivered, r.metrics.expected) << label << " " << forwarding << " seed " << seed;
    EXPECT_EQ(r.metrics.duplicate_deliveries, 0u);
    const auto [any, steady] = rebroadcasting(r, 20);
    std::printf("%s, %s, seed %llu: %zu/%zu delivered, %llu fragment transmissions (%llu rebroadcasts), %.3f per "
                "delivery; %zu of %zu nodes rebroadcast, %zu at least half the messages\n",
                label, forwarding.c_str(), static_cast<unsigned long long>(seed), r.metrics.delivered,
                r.metrics.expected, static_cast<unsigned long long>(r.metrics.fragment_transmissions),
                static_cast<unsigned long long>(r.metrics.forwards), r.metrics.transmissions_per_delivery, any,
                s.nodes.size(), steady);
    t.add(r);
  }
  t.print(label, forwarding);
  return t;
}

template <typename Make>
void expect_relay_set_prunes(Make make, const char* label) {
  const Totals flooding = run_seeds(make, "flooding", label);
  const Totals relay = run_seeds(make, "relay-set", label);
  std::printf("%s: relay-set / flooding = %.3f (transmissions per delivery, seeds 1-3 pooled)\n", label,
              relay.per_delivery() / flooding.per_delivery());
  EXPECT_EQ(flooding.delivered, flooding.expected);
  EXPECT_EQ(relay.delivered, relay.expected);
  EXPECT_LT(relay.transmissions, flooding.transmissions);
}

}  // namespace

TEST(RelaySetSim, GridEveryNodeSubscribedSendsLessThanFlooding) {
  expect_relay_set_prunes(grid_all, "grid 5x5, every node subscribed, 80 %");
}

TEST(RelaySetSim, RandomGeometricGraphEveryNodeSubscribedSendsLessThanFlooding) {
  expect_relay_set_prunes(geometric_all, "random geometric graph of 50 (degree 9), every node subscribed, 80 %");
}

}  // namespace relay_set_sim_test
