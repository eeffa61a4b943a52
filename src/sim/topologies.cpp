#include "sim/topologies.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "core/random.h"

#include <fmt/format.h>

namespace dissem::sim {
namespace {

const std::string kGroup = "multihop";

LinkParams link_of(const TopologyCommon& c, double reliability_pct, bool enabled) {
  LinkParams l;
  l.reliability = reliability_pct / 100.0;
  l.latency = c.latency;
  l.jitter = c.jitter;
  l.enabled = enabled;
  return l;
}

// Links default to disabled: only the pairs a topology names can hear each other.
Scenario base(const TopologyCommon& c, const std::string& source) {
  if (!(c.reliability_pct > 0 && c.reliability_pct <= 100)) throw std::invalid_argument("reliability must be in (0, 100]");
  if (c.messages == 0 || c.message_size == 0) throw std::invalid_argument("need at least one message of one byte");
  Scenario s;
  s.source = source;
  s.seed = c.seed;
  s.duration = c.duration;
  s.stop_when_complete = true;
  s.default_link = link_of(c, c.reliability_pct, false);
  return s;
}

ScenarioNode node(const TopologyCommon& c, std::string name, bool subscribes) {
  ScenarioNode n;
  n.name = std::move(name);
  n.capacity_bps = static_cast<std::uint64_t>(std::llround(c.capacity_kbps * 1024.0));
  if (subscribes) n.subscribe = {kGroup};
  n.controllers = c.controllers;
  return n;
}

void connect(Scenario& s, std::size_t a, std::size_t b, const LinkParams& l) {
  s.links.push_back({a, b, l});
  s.links.push_back({b, a, l});
}

// A history that reaches back to a publisher's first message.
std::uint32_t whole_stream(const TopologyCommon& c) { return static_cast<std::uint32_t>(std::min<std::size_t>(c.messages, 1'000'000)); }

ScenarioPublication publication(const TopologyCommon& c, std::size_t node, Micros at) {
  ScenarioPublication p;
  p.at = at;
  p.node = node;
  p.group = kGroup;
  p.size = c.message_size;
  p.count = c.messages;
  p.interval = c.interval;
  return p;
}

}  // namespace

Scenario make_line(const LineParams& p) {
  if (p.nodes < 2) throw std::invalid_argument("a line needs at least 2 nodes");
  Scenario s = base(p.common, fmt::format("line of {}", p.nodes));
  for (std::size_t i = 0; i < p.nodes; ++i) {
    s.nodes.push_back(node(p.common, fmt::format("n{}", i + 1), i + 1 == p.nodes || (p.all_subscribe && i > 0)));
    s.nodes.back().history = whole_stream(p.common);
  }
  for (std::size_t i = 0; i + 1 < p.nodes; ++i) connect(s, i, i + 1, link_of(p.common, p.common.reliability_pct, true));
  // Beacons first: a second for the nodes to hear their neighbours.
  s.publications.push_back(publication(p.common, 0, 1 * kSeconds));
  return s;
}

Scenario make_grid(const GridParams& p) {
  if (p.side < 2) throw std::invalid_argument("a grid needs a side of at least 2");
  Scenario s = base(p.common, fmt::format("grid {}x{}", p.side, p.side));
  for (std::size_t r = 0; r < p.side; ++r)
    for (std::size_t c = 0; c < p.side; ++c) {
      bool subscribes = false;
      switch (p.subscribers) {
        case GridSubscribers::Row: subscribes = r == 0 && c > 0; break;
        case GridSubscribers::FarCorner: subscribes = r + 1 == p.side && c + 1 == p.side; break;
        case GridSubscribers::All: subscribes = r > 0 || c > 0; break;
      }
      s.nodes.push_back(node(p.common, fmt::format("r{}c{}", r, c), subscribes));
      s.nodes.back().history = whole_stream(p.common);
    }
  const LinkParams l = link_of(p.common, p.common.reliability_pct, true);
  for (std::size_t r = 0; r < p.side; ++r)
    for (std::size_t c = 0; c < p.side; ++c) {
      const std::size_t i = r * p.side + c;
      if (c + 1 < p.side) connect(s, i, i + 1, l);
      if (r + 1 < p.side) connect(s, i, i + p.side, l);
    }
  // Subscription-aware forwarding needs interest to spread a few beacons deep.
  s.publications.push_back(publication(p.common, 0, 5 * kSeconds));
  return s;
}

Scenario make_partition(const PartitionParams& p) {
  if (p.cluster < 2) throw std::invalid_argument("a cluster needs at least 2 nodes");
  if (!(p.bridge_reliability_pct > 0 && p.bridge_reliability_pct <= 100))
    throw std::invalid_argument("bridge reliability must be in (0, 100]");
  Scenario s = base(p.common, fmt::format("partition of 2 x {}, heal at {:.1f} s", p.cluster,
                                          static_cast<double>(p.heal_at) / static_cast<double>(kSeconds)));
  for (const char side : {'a', 'b'})
    for (std::size_t i = 0; i < p.cluster; ++i) {
      s.nodes.push_back(node(p.common, fmt::format("{}{}", side, i + 1), true));
      s.nodes.back().history = p.history.value_or(whole_stream(p.common));
    }
  const LinkParams inside = link_of(p.common, p.common.reliability_pct, true);
  for (std::size_t k = 0; k < 2; ++k)
    for (std::size_t i = 0; i < p.cluster; ++i)
      for (std::size_t j = i + 1; j < p.cluster; ++j) connect(s, k * p.cluster + i, k * p.cluster + j, inside);
  const std::size_t a_bridge = p.cluster - 1;
  const std::size_t b_bridge = p.cluster;
  LinkParams bridge = link_of(p.common, p.bridge_reliability_pct, false);
  connect(s, a_bridge, b_bridge, bridge);
  bridge.enabled = true;
  s.link_changes.push_back({p.heal_at, a_bridge, b_bridge, bridge});
  s.link_changes.push_back({p.heal_at, b_bridge, a_bridge, bridge});
  s.publications.push_back(publication(p.common, 0, 1 * kSeconds));
  s.publications.push_back(publication(p.common, 2 * p.cluster - 1, 1 * kSeconds + p.common.interval / 2));
  return s;
}

Scenario make_late_join(const LateJoinParams& p) {
  if (p.nodes < 2) throw std::invalid_argument("the group needs at least 2 nodes");
  Scenario s = base(p.common, fmt::format("late join after {:.1f} s", static_cast<double>(p.join_at) / 1e6));
  for (std::size_t i = 0; i < p.nodes; ++i) s.nodes.push_back(node(p.common, fmt::format("n{}", i + 1), i > 0));
  ScenarioNode late = node(p.common, "late", true);
  late.subscribe_at = p.join_at;
  late.history = p.history;
  s.nodes.push_back(std::move(late));
  const LinkParams l = link_of(p.common, p.common.reliability_pct, true);
  for (std::size_t i = 0; i < p.nodes; ++i)
    for (std::size_t j = i + 1; j < p.nodes; ++j) connect(s, i, j, l);
  const std::size_t late_index = p.nodes;
  LinkParams off = l;
  off.enabled = false;
  for (std::size_t i = 0; i < p.nodes; ++i) {
    connect(s, i, late_index, off);
    s.link_changes.push_back({p.join_at, i, late_index, l});
    s.link_changes.push_back({p.join_at, late_index, i, l});
  }
  s.publications.push_back(publication(p.common, 0, 1 * kSeconds));
  return s;
}

namespace {

// Seed sub-stream of the subscriber draw, apart from the graph's (the seed itself).
constexpr std::uint64_t kSubscriberStream = 1;

// The node nearest the corner (0, 0) of the field.
std::size_t corner_node(const scenario::GeometricGraph& g) {
  std::size_t best = 0;
  for (std::size_t i = 1; i < g.points.size(); ++i)
    if (g.points[i].x + g.points[i].y < g.points[best].x + g.points[best].y) best = i;
  return best;
}

// Which nodes subscribe: `pct` of those other than `publisher`, at random.
std::vector<bool> draw_subscribers(std::size_t nodes, std::size_t publisher, double pct, std::uint64_t seed) {
  if (!(pct > 0 && pct <= 100)) throw std::invalid_argument("the share of subscribers must be in (0, 100]");
  std::vector<std::size_t> others;
  for (std::size_t i = 0; i < nodes; ++i)
    if (i != publisher) others.push_back(i);
  const auto want = std::clamp<std::size_t>(
      static_cast<std::size_t>(std::llround(pct / 100.0 * static_cast<double>(others.size()))), 1, others.size());
  Random rng(derive_seed(seed, kSubscriberStream));
  std::vector<bool> subscribes(nodes, false);
  for (std::size_t k = 0; k < want; ++k) {  // a partial Fisher-Yates shuffle
    std::swap(others[k], others[k + rng.below(others.size() - k)]);
    subscribes[others[k]] = true;
  }
  return subscribes;
}

}  // namespace

Scenario make_geometric(const GeometricParams& p, scenario::GeometricGraph* graph_out) {
  scenario::GeometricGraph g = scenario::make_geometric_graph({.nodes = p.nodes, .mean_degree = p.degree, .seed = p.common.seed});
  Scenario s = base(p.common, fmt::format("geometric graph of {} nodes, degree {:.2f} (target {}, {}-{}), radius {:.4f}, "
                                          "{} redrawn to connect it",
                                          p.nodes, g.mean_degree(), p.degree, g.min_degree(), g.max_degree(), g.radius,
                                          g.redrawn));
  const std::size_t publisher = corner_node(g);
  const auto subscribes = draw_subscribers(p.nodes, publisher, p.subscribers_pct, p.common.seed);
  s.nodes.reserve(p.nodes);
  for (std::size_t i = 0; i < p.nodes; ++i) {
    s.nodes.push_back(node(p.common, fmt::format("g{}", i + 1), subscribes[i]));
    s.nodes.back().history = whole_stream(p.common);
  }
  const LinkParams l = link_of(p.common, p.common.reliability_pct, true);
  s.links.reserve(2 * g.edges());
  for (std::size_t i = 0; i < p.nodes; ++i)
    for (std::size_t j : g.neighbours[i])
      if (j > i) connect(s, i, j, l);
  s.publications.push_back(publication(p.common, publisher, p.start));
  if (graph_out != nullptr) *graph_out = std::move(g);
  return s;
}

}  // namespace dissem::sim
