// shorthand_links (expansion.h): the pairs each topology kind links.
#include <stdexcept>

#include "scenario/expansion.h"
#include "scenario/scenario_error.h"

namespace dissem::scenario {
namespace {

void both(std::set<Pair>& pairs, int a, int b) {
  pairs.insert({a, b});
  pairs.insert({b, a});
}

void clique(std::set<Pair>& pairs, int lo, int hi) {
  for (int a = lo; a <= hi; ++a)
    for (int b = a + 1; b <= hi; ++b) both(pairs, a, b);
}

GeometricGraph draw(const TopologySpec& spec, std::size_t nodes) {
  GeometricGraphParams p{.nodes = nodes, .seed = spec.graph_seed, .from_corner = true};
  if (spec.radius) p.radius = *spec.radius;
  if (spec.degree) p.mean_degree = *spec.degree;
  try {
    return make_geometric_graph(p);
  } catch (const std::exception& e) {
    fail(spec.source, spec.radius ? "topology.radius" : "topology.degree", e.what());
  }
}

}  // namespace

std::set<Pair> shorthand_links(const TopologySpec& spec, std::size_t nodes, std::optional<GeometricGraph>* graph) {
  std::set<Pair> pairs;
  const int n = static_cast<int>(nodes);
  if (spec.kind == "full") clique(pairs, 1, n);
  if (spec.kind == "line")
    for (int a = 1; a < n; ++a) both(pairs, a, a + 1);
  if (spec.kind == "grid") {
    const int rows = static_cast<int>(spec.rows);
    const int cols = static_cast<int>(spec.cols);
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) {
        const int me = r * cols + c + 1;
        if (c + 1 < cols) both(pairs, me, me + 1);
        if (r + 1 < rows) both(pairs, me, me + cols);
      }
  }
  if (spec.kind == "partition-heal") {
    clique(pairs, 1, spec.clusters.first);
    clique(pairs, spec.clusters.first + 1, n);
    both(pairs, spec.bridge.first, spec.bridge.second);
  }
  if (spec.kind == "geometric") {
    GeometricGraph g = draw(spec, nodes);
    for (std::size_t i = 0; i < g.neighbours.size(); ++i)
      for (std::size_t j : g.neighbours[i]) pairs.insert({static_cast<int>(i + 1), static_cast<int>(j + 1)});
    if (graph != nullptr) *graph = std::move(g);
  }
  return pairs;
}

}  // namespace dissem::scenario
