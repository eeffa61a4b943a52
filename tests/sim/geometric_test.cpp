// Random geometric graphs (scenario/geometric_graph.h) and a small network
// built on one (sim/topologies.h make_geometric): connected, the mean degree
// asked for, the same graph from the same seed, and full delivery.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "sim/experiments.h"
#include "scenario/geometric_graph.h"
#include "sim/topologies.h"

using namespace dissem;
using namespace dissem::sim;
using namespace dissem::scenario;

namespace geometric_test {
namespace {

GeometricGraph graph(std::size_t nodes, double degree, std::uint64_t seed) {
  return make_geometric_graph({.nodes = nodes, .mean_degree = degree, .seed = seed});
}

bool same_graph(const GeometricGraph& a, const GeometricGraph& b) {
  if (a.points.size() != b.points.size() || a.neighbours != b.neighbours) return false;
  for (std::size_t i = 0; i < a.points.size(); ++i)
    if (a.points[i].x != b.points[i].x || a.points[i].y != b.points[i].y) return false;
  return true;
}

}  // namespace

TEST(GeometricGraph, IsConnectedWithTheMeanDegreeAskedFor) {
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const auto g = graph(1000, 9, seed);
    std::printf("seed %llu: mean degree %.2f (%zu-%zu), radius %.4f, %zu points redrawn in %zu rounds\n",
                static_cast<unsigned long long>(seed), g.mean_degree(), g.min_degree(), g.max_degree(), g.radius,
                g.redrawn, g.rounds);
    EXPECT_EQ(reachable_from_first(g), 1000u);
    EXPECT_GE(g.min_degree(), 1u);
    EXPECT_NEAR(g.mean_degree(), 9.0, 0.9);
  }
  // A sparse graph needs re-drawing, and still ends connected.
  const auto sparse = graph(500, 4, 3);
  EXPECT_GT(sparse.redrawn, 0u);
  EXPECT_EQ(reachable_from_first(sparse), 500u);
}

TEST(GeometricGraph, LinksArePairsWithinTheRadiusBothWays) {
  const auto g = graph(300, 8, 7);
  for (std::size_t i = 0; i < g.points.size(); ++i) {
    const auto& n = g.neighbours[i];
    EXPECT_TRUE(std::is_sorted(n.begin(), n.end()));
    for (std::size_t j = 0; j < g.points.size(); ++j) {
      const double dx = g.points[i].x - g.points[j].x;
      const double dy = g.points[i].y - g.points[j].y;
      const bool linked = std::binary_search(n.begin(), n.end(), j);
      EXPECT_EQ(linked, i != j && dx * dx + dy * dy <= g.radius * g.radius) << i << " - " << j;
      if (linked) {
        EXPECT_TRUE(std::binary_search(g.neighbours[j].begin(), g.neighbours[j].end(), i));
      }
    }
  }
}

TEST(GeometricGraph, SameSeedSameGraph) {
  EXPECT_TRUE(same_graph(graph(400, 9, 11), graph(400, 9, 11)));
  EXPECT_FALSE(same_graph(graph(400, 9, 11), graph(400, 9, 12)));
}

TEST(GeometricGraph, RadiusGrowsWithDegreeAndShrinksWithNodes) {
  EXPECT_LT(geometric_radius(1000, 6), geometric_radius(1000, 10));
  EXPECT_GT(geometric_radius(100, 8), geometric_radius(10'000, 8));
  // Far from the edges the disc formula alone holds: pi r^2 (n - 1) = degree.
  EXPECT_NEAR(geometric_radius(1'000'000, 8), std::sqrt(8.0 / (999'999 * 3.14159265)), 1e-5);
  EXPECT_THROW(geometric_radius(1, 1), std::invalid_argument);
  EXPECT_THROW(geometric_radius(10, 10), std::invalid_argument);
}

TEST(GeometricGraph, AGivenRadiusLinksExactlyThePairsWithinIt) {
  const auto g = make_geometric_graph({.nodes = 50, .radius = 0.25, .seed = 1});
  EXPECT_EQ(g.radius, 0.25);
  EXPECT_EQ(reachable_from_first(g), 50u);
  for (std::size_t i = 0; i < g.points.size(); ++i)
    for (std::size_t j = 0; j < g.points.size(); ++j) {
      const double dx = g.points[i].x - g.points[j].x;
      const double dy = g.points[i].y - g.points[j].y;
      const auto& n = g.neighbours[i];
      EXPECT_EQ(std::binary_search(n.begin(), n.end(), j), i != j && dx * dx + dy * dy <= 0.0625);
    }
  EXPECT_THROW(make_geometric_graph({.nodes = 50, .radius = 1.5, .seed = 1}), std::invalid_argument);
  // Far too small a radius: an error, not a clump of re-drawn points.
  EXPECT_THROW(make_geometric_graph({.nodes = 50, .radius = 0.02, .seed = 1}), std::runtime_error);
}

TEST(GeometricGraph, NumberedFromTheCornerTheSameGraphRelabelled) {
  const auto drawn = make_geometric_graph({.nodes = 200, .mean_degree = 8, .seed = 4});
  const auto cornered = make_geometric_graph({.nodes = 200, .mean_degree = 8, .seed = 4, .from_corner = true});
  EXPECT_EQ(cornered.edges(), drawn.edges());
  EXPECT_EQ(cornered.redrawn, drawn.redrawn);
  double previous = -1;
  for (const auto& p : cornered.points) {
    const double d = p.x * p.x + p.y * p.y;
    EXPECT_GE(d, previous);
    previous = d;
  }
  auto sorted_drawn = drawn.points;
  auto sorted_cornered = cornered.points;
  const auto by_xy = [](const GeometricGraph::Point& a, const GeometricGraph::Point& b) {
    return a.x != b.x ? a.x < b.x : a.y < b.y;
  };
  std::sort(sorted_drawn.begin(), sorted_drawn.end(), by_xy);
  std::sort(sorted_cornered.begin(), sorted_cornered.end(), by_xy);
  for (std::size_t i = 0; i < sorted_drawn.size(); ++i) {
    EXPECT_EQ(sorted_drawn[i].x, sorted_cornered[i].x);
    EXPECT_EQ(sorted_drawn[i].y, sorted_cornered[i].y);
  }
}

TEST(GeometricTopology, ScenarioHasTheGraphsLinksAndSubscribers) {
  GeometricParams p;
  p.nodes = 101;
  p.subscribers_pct = 5;
  GeometricGraph g;
  const Scenario s = make_geometric(p, &g);
  ASSERT_EQ(s.nodes.size(), 101u);
  EXPECT_EQ(s.links.size(), 2 * g.edges());
  ASSERT_EQ(s.publications.size(), 1u);
  const std::size_t subscribers = static_cast<std::size_t>(
      std::count_if(s.nodes.begin(), s.nodes.end(), [](const ScenarioNode& n) { return !n.subscribe.empty(); }));
  EXPECT_EQ(subscribers, 5u);
  EXPECT_TRUE(s.nodes[s.publications[0].node].subscribe.empty());
  EXPECT_FALSE(s.default_link.enabled) << "only the graph's pairs hear each other";
}

TEST(GeometricTopology, SmallNetworkDeliversEverything) {
  for (const char* forwarding : {"flooding", "subscription-aware"}) {
    GeometricParams p;
    p.nodes = 40;
    p.degree = 7;
    p.subscribers_pct = forwarding == std::string("flooding") ? 100 : 10;
    p.common.messages = 5;
    p.common.duration = 120 * kSeconds;
    p.common.controllers.forwarding = forwarding;
    const Scenario s = make_geometric(p);
    const auto r = run_scenario(s);
    std::printf("%s: delivered %zu/%zu, %.2f transmissions per delivered message, %llu events\n", forwarding,
                r.metrics.delivered, r.metrics.expected, r.metrics.transmissions_per_delivery,
                static_cast<unsigned long long>(r.run.sim.events_run));
    EXPECT_TRUE(r.run.all_complete) << forwarding;
    EXPECT_DOUBLE_EQ(r.metrics.delivery_ratio, 1.0) << forwarding;
    EXPECT_EQ(r.metrics.duplicate_deliveries, 0u);
    EXPECT_EQ(run_scenario(s).run.trace_hash, r.run.trace_hash) << "same scenario, same run";
    // Printed and read back, the scenario runs the same.
    const Scenario parsed = parse_scenario(scenario_toml(s), "geometric.toml", ".");
    EXPECT_EQ(run_scenario(parsed).run.trace_hash, r.run.trace_hash);
  }
}

}  // namespace geometric_test
