#include "controllers/forwarding/relay_selection.h"

#include <algorithm>
#include <deque>
#include <map>

namespace dissem::controllers {
namespace {

// N1 (indices 0..one_hop-1, as in the Neighbourhood) and N2, with the links
// the neighbours' lists show, both ways.
struct Graph {
  std::map<NodeId, std::size_t> index;
  std::vector<RelayPriority> priority;
  std::vector<std::vector<std::size_t>> links;
  std::size_t one_hop = 0;

  std::size_t add(NodeId id, std::uint32_t neighbours) {
    const auto [it, fresh] = index.emplace(id, priority.size());
    if (fresh) {
      priority.push_back({neighbours, relay_tie_break(id)});
      links.emplace_back();
    }
    return it->second;
  }
};

// Whether neighbour `i`'s own list names `node`.
bool lists_node(const Neighbourhood& n, std::size_t i, NodeId node) {
  if (i >= n.lists.size()) return false;
  return std::any_of(n.lists[i].begin(), n.lists[i].end(), [&](const NeighbourCount& e) { return e.node == node; });
}

Graph build_graph(const Neighbourhood& n) {
  Graph g;
  for (const auto& one : n.one_hop) g.add(one.node, one.neighbours);
  g.one_hop = g.priority.size();
  for (std::size_t i = 0; i < n.lists.size() && i < g.one_hop; ++i) {
    for (const auto& e : n.lists[i]) {
      if (e.node == 0 || e.node == n.self || e.node == n.one_hop[i].node) continue;
      const std::size_t k = g.add(e.node, 0);
      // A link between two of our neighbours counts only when both say it
      // (a symmetric link, as NHDP's): one neighbour's word cannot claim
      // the others, and so cannot talk us out of relaying.
      if (k < g.one_hop && !lists_node(n, k, n.one_hop[i].node)) continue;
      // A 2-hop node's count: the lowest any neighbour passes on (a
      // neighbour's own word stands for itself).
      auto& count = g.priority[k].neighbours;
      if (k >= g.one_hop && e.neighbours != 0 && (count == 0 || e.neighbours < count)) count = e.neighbours;
      g.links[i].push_back(k);
      g.links[k].push_back(i);
    }
  }
  for (auto& l : g.links) {
    std::sort(l.begin(), l.end());
    l.erase(std::unique(l.begin(), l.end()), l.end());
  }
  return g;
}

// Which nodes a path from `from` reaches when only nodes above `own` may be
// passed through.
std::vector<bool> reachable_above(const Graph& g, std::size_t from, const RelayPriority& own) {
  std::vector<bool> visited(g.priority.size(), false);
  std::deque<std::size_t> queue{from};
  visited[from] = true;
  while (!queue.empty()) {
    const std::size_t j = queue.front();
    queue.pop_front();
    for (const std::size_t k : g.links[j]) {
      if (visited[k]) continue;
      visited[k] = true;
      if (g.priority[k] > own) queue.push_back(k);
    }
  }
  return visited;
}

}  // namespace

std::uint64_t relay_tie_break(NodeId id) {
  std::uint64_t z = static_cast<std::uint64_t>(id) + 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

Neighbourhood read_neighbourhood(const NodeView& node) {
  Neighbourhood n;
  n.self = node.self();
  for (const auto& one : node.neighbours())
    if (one.node != n.self && one.node != 0) n.one_hop.push_back(one);
  n.lists.reserve(n.one_hop.size());
  for (const auto& one : n.one_hop) n.lists.push_back(node.neighbours_of(one.node));
  return n;
}

bool selects_itself_as_relay(const Neighbourhood& n) {
  if (n.one_hop.size() < 2) return false;
  const Graph g = build_graph(n);
  const RelayPriority own{static_cast<std::uint32_t>(n.one_hop.size()), relay_tie_break(n.self)};
  std::size_t rmax = 0;
  for (std::size_t i = 1; i < g.one_hop; ++i)
    if (g.priority[i] > g.priority[rmax]) rmax = i;
  if (own > g.priority[rmax]) return true;
  const auto reached = reachable_above(g, rmax, own);
  return !std::all_of(reached.begin(), reached.begin() + static_cast<std::ptrdiff_t>(g.one_hop), [](bool r) { return r; });
}

}  // namespace dissem::controllers
