// Relay-set forwarding (controllers/forwarding/relay_set.h): the E-CDS
// decision of relay_selection.h on small hand-made graphs, each node seeing
// only its 2-hop neighbourhood through a fake NodeView, and the forwarding
// rule that follows from it.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "controllers/forwarding/relay_selection.h"
#include "controllers/forwarding/relay_set.h"

using namespace dissem;
using namespace dissem::controllers;

namespace relay_set_test {
namespace {

using Graph = std::map<NodeId, std::set<NodeId>>;

Graph undirected(const std::vector<std::pair<NodeId, NodeId>>& edges) {
  Graph g;
  for (const auto& [a, b] : edges) {
    g[a].insert(b);
    g[b].insert(a);
  }
  return g;
}

// What node `id` of `g` would see with every beacon heard: its neighbours
// with their counts, and theirs with the counts they pass on.
class GraphView final : public NodeView {
 public:
  GraphView(const Graph& g, NodeId id) : g_(g), id_(id) {}
  NodeId self() const override { return id_; }
  Micros packet_time() const override { return 10 * kMillis; }
  Micros serve_delay_max() const override { return 30 * kMillis; }
  bool subscribed(const std::string&) const override { return true; }
  std::span<const PeerInterest> interest(const std::string&) const override { return {}; }
  std::vector<NeighbourCount> neighbours() const override { return counted(g_.at(id_)); }
  std::vector<NeighbourCount> neighbours_of(NodeId peer) const override {
    if (!g_.at(id_).contains(peer)) return {};
    return counted(g_.at(peer));
  }
  std::uint64_t neighbourhood_version() const override { return version; }
  std::uint64_t version = 1;

 private:
  std::vector<NeighbourCount> counted(const std::set<NodeId>& nodes) const {
    std::vector<NeighbourCount> out;
    for (NodeId n : nodes) out.push_back({n, static_cast<std::uint32_t>(g_.at(n).size())});
    return out;
  }
  const Graph& g_;
  NodeId id_;
};

std::set<NodeId> relays_of(const Graph& g) {
  std::set<NodeId> out;
  for (const auto& [id, _] : g)
    if (selects_itself_as_relay(read_neighbourhood(GraphView(g, id)))) out.insert(id);
  return out;
}

// Every node is a relay or hears one, and the relays are connected.
bool connected_dominating(const Graph& g, const std::set<NodeId>& relays) {
  if (relays.empty()) return false;
  for (const auto& [id, n] : g)
    if (!relays.contains(id) && std::none_of(n.begin(), n.end(), [&](NodeId x) { return relays.contains(x); }))
      return false;
  std::set<NodeId> seen{*relays.begin()};
  std::vector<NodeId> stack{*relays.begin()};
  while (!stack.empty()) {
    const NodeId x = stack.back();
    stack.pop_back();
    for (NodeId y : g.at(x))
      if (relays.contains(y) && seen.insert(y).second) stack.push_back(y);
  }
  return seen.size() == relays.size();
}

Graph grid(NodeId side) {
  std::vector<std::pair<NodeId, NodeId>> edges;
  for (NodeId r = 0; r < side; ++r)
    for (NodeId c = 0; c < side; ++c) {
      const NodeId i = 1 + r * side + c;
      if (c + 1 < side) edges.emplace_back(i, i + 1);
      if (r + 1 < side) edges.emplace_back(i, i + side);
    }
  return undirected(edges);
}

}  // namespace

TEST(RelaySelection, ANeighboursClaimToHearTheOthersCountsOnlyWhereTheyConfirmIt) {
  // v sits between a and b, which do not hear each other. H, beside v, says
  // it has 50 neighbours (the top priority) and hears a and b; they do not
  // name H. On H's word v would leave the relaying to H (and H could then
  // stay silent): the one-sided links do not count, so v still relays.
  constexpr NodeId v = 1, a = 2, b = 3, h = 4;
  Neighbourhood n;
  n.self = v;
  n.one_hop = {{a, 1}, {b, 1}, {h, 50}};
  n.lists = {{{v, 3}}, {{v, 3}}, {{v, 3}, {a, 1}, {b, 1}}};
  EXPECT_TRUE(selects_itself_as_relay(n));
  // Once a and b do name H, the links are real: H covers them and v need not relay.
  n.lists = {{{v, 3}, {h, 50}}, {{v, 3}, {h, 50}}, {{v, 3}, {a, 1}, {b, 1}}};
  EXPECT_FALSE(selects_itself_as_relay(n));
}

TEST(RelaySelection, ALineRelaysThroughItsInnerNodes) {
  const Graph line = undirected({{1, 2}, {2, 3}, {3, 4}, {4, 5}});
  EXPECT_EQ(relays_of(line), (std::set<NodeId>{2, 3, 4}));
}

TEST(RelaySelection, AStarRelaysThroughItsCentreAlone) {
  const Graph star = undirected({{1, 2}, {1, 3}, {1, 4}, {1, 5}});
  EXPECT_EQ(relays_of(star), (std::set<NodeId>{1}));
}

TEST(RelaySelection, ATriangleRelaysThroughItsTopNodeAlone) {
  // Everyone hears everyone: only the node of highest priority (all have
  // two neighbours: the tie-break decides) relays.
  const Graph triangle = undirected({{1, 2}, {2, 3}, {1, 3}});
  NodeId top = 1;
  for (NodeId id : {2u, 3u})
    if (relay_tie_break(id) > relay_tie_break(top)) top = id;
  EXPECT_EQ(relays_of(triangle), (std::set<NodeId>{top}));
}

TEST(RelaySelection, A3x3GridRelaysThroughACentralCross) {
  const Graph g = grid(3);
  const auto relays = relays_of(g);
  EXPECT_TRUE(connected_dominating(g, relays));
  EXPECT_TRUE(relays.contains(5)) << "the centre has the most neighbours";
  EXPECT_LE(relays.size(), 5u);
  EXPECT_FALSE(relays.contains(1) || relays.contains(3) || relays.contains(7) || relays.contains(9))
      << "corners are covered by the cross";
}

TEST(RelaySelection, LargerGridsAndRandomGraphsGetAConnectedDominatingSet) {
  for (NodeId side : {4u, 5u, 7u}) {
    const Graph g = grid(side);
    const auto relays = relays_of(g);
    EXPECT_TRUE(connected_dominating(g, relays)) << side;
    EXPECT_LT(relays.size(), g.size()) << side;
  }
  // Random graphs of 30 nodes: a random spanning tree plus random edges.
  std::uint64_t x = 12345;
  const auto next = [&x] { return x = x * 6364136223846793005ULL + 1442695040888963407ULL, x >> 33; };
  for (int round = 0; round < 20; ++round) {
    std::vector<std::pair<NodeId, NodeId>> edges;
    for (NodeId i = 2; i <= 30; ++i) edges.emplace_back(i, 1 + static_cast<NodeId>(next() % (i - 1)));
    for (int e = 0; e < 30; ++e) {
      const NodeId a = 1 + static_cast<NodeId>(next() % 30);
      const NodeId b = 1 + static_cast<NodeId>(next() % 30);
      if (a != b) edges.emplace_back(a, b);
    }
    const Graph g = undirected(edges);
    EXPECT_TRUE(connected_dominating(g, relays_of(g))) << "round " << round;
  }
}

TEST(RelaySelection, WhatIsNotKnownYetMakesANodeRelay) {
  // The lowest node of the triangle 1-2-3 does not relay once it knows its
  // neighbours' counts and that they hear each other.
  NodeId low = 1;
  for (NodeId id : {2u, 3u})
    if (relay_tie_break(id) < relay_tie_break(low)) low = id;
  std::vector<NodeId> others;
  for (NodeId id : {1u, 2u, 3u})
    if (id != low) others.push_back(id);
  Neighbourhood n;
  n.self = low;
  n.one_hop = {{others[0], 2}, {others[1], 2}};
  n.lists = {{{low, 2}, {others[1], 2}}, {{low, 2}, {others[0], 2}}};
  EXPECT_FALSE(selects_itself_as_relay(n));
  // Their lists not in yet: it cannot tell they hear each other.
  n.lists = {{}, {}};
  EXPECT_TRUE(selects_itself_as_relay(n));
  // Their counts not said yet: they rank below it.
  n.one_hop = {{others[0], 0}, {others[1], 0}};
  n.lists = {{{low, 0}, {others[1], 0}}, {{low, 0}, {others[0], 0}}};
  EXPECT_TRUE(selects_itself_as_relay(n));
  // A node with a single neighbour never relays.
  n.one_hop = {{others[0], 1}};
  n.lists = {{{low, 1}}};
  EXPECT_FALSE(selects_itself_as_relay(n));
}

namespace {

MessageMeta meta(std::uint64_t seq) {
  MessageMeta m;
  m.id = MessageId{"g", 1, seq};
  m.total_length = 1000;
  return m;
}

}  // namespace

TEST(RelaySetForwarding, RelaysRebroadcastFirstPassOthersStayQuiet) {
  const Graph line = undirected({{1, 2}, {2, 3}});
  Random rng(7);
  RelaySetForwarding relay({8, 0});
  const GraphView centre(line, 2);
  const auto m = meta(1);
  const auto d = relay.on_new_fragment({m, 0, 1000, 0, true, 1, false}, centre, 0, rng);
  EXPECT_TRUE(d.forward);
  EXPECT_TRUE(d.yield_to_copies) << "as flooding's, a rebroadcast yields to a copy heard first";
  EXPECT_LE(d.delay, 40 * kMillis);
  EXPECT_FALSE(relay.on_new_fragment({m, 0, 1000, 0, true, 3, false}, centre, 0, rng).forward) << "decided once";
  EXPECT_TRUE(relay.relays("g", centre));
  EXPECT_TRUE(relay.needs_neighbour_counts());

  EXPECT_FALSE(relay.on_new_fragment({m, 1000, 1000, 0, true, 0, true}, centre, 0, rng).forward)
      << "repairs are not passed on";
  EXPECT_FALSE(relay.on_new_fragment({meta(2), 0, 1000, 8, true, 1, false}, centre, 0, rng).forward)
      << "hop limit";

  RelaySetForwarding end({8, 0});
  const GraphView edge(line, 3);
  EXPECT_FALSE(end.on_new_fragment({m, 0, 1000, 1, true, 2, false}, edge, 0, rng).forward);
  EXPECT_FALSE(end.relays("g", edge));
}

TEST(RelaySetForwarding, TheDecisionFollowsTheNeighbourhoodVersion) {
  Graph g = undirected({{1, 2}, {2, 3}});
  RelaySetForwarding c({8, 0});
  GraphView view(g, 2);
  EXPECT_TRUE(c.is_relay(view));
  // 1 and 3 come to hear each other: 2 is no longer needed, once the
  // version says the neighbourhood changed.
  g[1].insert(3);
  g[3].insert(1);
  const bool top = relay_tie_break(2) > relay_tie_break(1) && relay_tie_break(2) > relay_tie_break(3);
  EXPECT_TRUE(c.is_relay(view)) << "same version, same answer";
  ++view.version;
  EXPECT_EQ(c.is_relay(view), top);
}

}  // namespace relay_set_test
