// Random geometric graphs: `nodes` points uniform in the unit square, a link
// between every two points within a radius, given or chosen for a target
// mean degree. The radio model of a flat, open field. The one generator of
// the project: the simulator's `geometric` experiment and the scenario
// language's `kind = "geometric"` (scenario/topology_spec.h) both draw here.
//
// Radius: with n points, the expected degree of a point is (n - 1) times the
// area of the disc around it that falls inside the square. Averaged over the
// square that area is pi r^2 - 8/3 r^3 + r^4 / 2 (the disc cut at the
// edges), solved for r by bisection.
//
// Connectivity: the graph must be connected for every node to be reachable.
// Points outside the largest component are drawn again (the others stay
// where they are) until the graph is connected; `redrawn` counts them. At a
// mean degree of 8-10 a few of 10,000 points are isolated, so this barely
// moves the distribution. When the first drawing's largest component holds
// less than a tenth of the points, re-drawing would only pile the points
// into a clump: the radius (or degree) is too small, and that is an error.
//
// Cost: points are binned in cells of side r, and each is compared only with
// the points of its own and the 8 neighbouring cells: O(nodes x degree).
// The same seed gives the same graph on every platform (core/random.h).
//
// Numbering: nodes are numbered in the order drawn, or (from_corner) by
// distance from the corner (0, 0) of the field, nearest first, so that a
// scenario can name a corner publisher and far subscribers by number.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace dissem::scenario {

struct GeometricGraphParams {
  std::size_t nodes = 100;
  double mean_degree = 9;
  double radius = 0;  // > 0: link within this radius instead (mean_degree unused)
  std::uint64_t seed = 1;
  bool from_corner = false;  // number nodes by distance from (0, 0), see above
  std::size_t max_rounds = 1000;  // of re-drawing; throws if still not connected
};

struct GeometricGraph {
  struct Point {
    double x = 0;
    double y = 0;
  };
  std::vector<Point> points;
  std::vector<std::vector<std::size_t>> neighbours;  // per node, ascending
  double radius = 0;
  std::size_t redrawn = 0;  // points drawn again to connect the graph
  std::size_t rounds = 0;   // re-drawing rounds (0: connected at the first draw)

  std::size_t edges() const;  // undirected
  double mean_degree() const;
  std::size_t min_degree() const;
  std::size_t max_degree() const;
};

// The radius that gives `mean_degree` expected neighbours among `nodes`
// points in the unit square (edges included).
double geometric_radius(std::size_t nodes, double mean_degree);

GeometricGraph make_geometric_graph(const GeometricGraphParams& params);

// Nodes reachable from node 0, counted by breadth-first search.
std::size_t reachable_from_first(const GeometricGraph& graph);

}  // namespace dissem::scenario
