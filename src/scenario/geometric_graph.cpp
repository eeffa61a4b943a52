#include "scenario/geometric_graph.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

#include "core/random.h"

namespace dissem::scenario {
namespace {

// Expected share of the unit square within r of a uniform point.
double covered_area(double r) { return std::numbers::pi * r * r - 8.0 / 3.0 * r * r * r + r * r * r * r / 2.0; }

// Points binned in square cells of side >= radius.
class CellGrid {
 public:
  CellGrid(const std::vector<GeometricGraph::Point>& points, double radius)
      : side_(std::max<std::size_t>(1, static_cast<std::size_t>(std::floor(1.0 / radius)))), cells_(side_ * side_) {
    for (std::size_t i = 0; i < points.size(); ++i) cells_[cell(points[i].x) * side_ + cell(points[i].y)].push_back(i);
  }

  // Calls f(j) for every point in the cell of (x, y) and the 8 around it.
  template <typename F>
  void near(const GeometricGraph::Point& p, F&& f) const {
    const std::size_t cx = cell(p.x);
    const std::size_t cy = cell(p.y);
    for (std::size_t x = cx == 0 ? 0 : cx - 1; x <= std::min(side_ - 1, cx + 1); ++x)
      for (std::size_t y = cy == 0 ? 0 : cy - 1; y <= std::min(side_ - 1, cy + 1); ++y)
        for (std::size_t j : cells_[x * side_ + y]) f(j);
  }

 private:
  std::size_t cell(double v) const {
    return std::min(side_ - 1, static_cast<std::size_t>(v * static_cast<double>(side_)));
  }
  std::size_t side_;
  std::vector<std::vector<std::size_t>> cells_;
};

void link_points(GeometricGraph& g) {
  const CellGrid grid(g.points, g.radius);
  const double r2 = g.radius * g.radius;
  g.neighbours.assign(g.points.size(), {});
  for (std::size_t i = 0; i < g.points.size(); ++i) {
    const auto& p = g.points[i];
    grid.near(p, [&](std::size_t j) {
      const double dx = g.points[j].x - p.x;
      const double dy = g.points[j].y - p.y;
      if (j != i && dx * dx + dy * dy <= r2) g.neighbours[i].push_back(j);
    });
    std::sort(g.neighbours[i].begin(), g.neighbours[i].end());
  }
}

// Component label of every node; `largest` gets the label of the biggest.
std::vector<std::size_t> components(const GeometricGraph& g, std::size_t* largest) {
  constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  std::vector<std::size_t> label(g.points.size(), kNone);
  std::vector<std::size_t> stack;
  std::size_t best_size = 0;
  std::size_t next = 0;
  for (std::size_t s = 0; s < g.points.size(); ++s) {
    if (label[s] != kNone) continue;
    std::size_t size = 0;
    label[s] = next;
    stack.push_back(s);
    while (!stack.empty()) {
      const std::size_t i = stack.back();
      stack.pop_back();
      ++size;
      for (std::size_t j : g.neighbours[i])
        if (label[j] == kNone) {
          label[j] = next;
          stack.push_back(j);
        }
    }
    if (size > best_size) {
      best_size = size;
      *largest = next;
    }
    ++next;
  }
  return label;
}

// Renumbers the nodes by distance from the corner (0, 0), nearest first
// (ties by x, then y), and relinks them.
void number_from_corner(GeometricGraph& g) {
  auto& pts = g.points;
  std::stable_sort(pts.begin(), pts.end(), [](const GeometricGraph::Point& a, const GeometricGraph::Point& b) {
    const double da = a.x * a.x + a.y * a.y;
    const double db = b.x * b.x + b.y * b.y;
    if (da != db) return da < db;
    return a.x != b.x ? a.x < b.x : a.y < b.y;
  });
  link_points(g);
}

}  // namespace

std::size_t GeometricGraph::edges() const {
  std::size_t ends = 0;
  for (const auto& n : neighbours) ends += n.size();
  return ends / 2;
}

double GeometricGraph::mean_degree() const {
  return points.empty() ? 0.0 : 2.0 * static_cast<double>(edges()) / static_cast<double>(points.size());
}

std::size_t GeometricGraph::min_degree() const {
  std::size_t d = neighbours.empty() ? 0 : neighbours.front().size();
  for (const auto& n : neighbours) d = std::min(d, n.size());
  return d;
}

std::size_t GeometricGraph::max_degree() const {
  std::size_t d = 0;
  for (const auto& n : neighbours) d = std::max(d, n.size());
  return d;
}

double geometric_radius(std::size_t nodes, double mean_degree) {
  if (nodes < 2) throw std::invalid_argument("a geometric graph needs at least 2 nodes");
  if (!(mean_degree > 0) || mean_degree > static_cast<double>(nodes - 1))
    throw std::invalid_argument("the mean degree must be in (0, nodes - 1]");
  const double share = mean_degree / static_cast<double>(nodes - 1);
  // covered_area grows from 0 at r = 0 to ~0.975 at r = 1 (the formula holds
  // up to there); beyond, every point is in range of almost every other.
  if (share >= covered_area(1.0)) return std::numbers::sqrt2;
  double lo = 0;
  double hi = 1;
  for (int i = 0; i < 100; ++i) {
    const double mid = (lo + hi) / 2;
    if (covered_area(mid) < share)
      lo = mid;
    else
      hi = mid;
  }
  return hi;
}

GeometricGraph make_geometric_graph(const GeometricGraphParams& p) {
  GeometricGraph g;
  if (p.radius > 0) {
    if (p.nodes < 1) throw std::invalid_argument("a geometric graph needs at least 1 node");
    if (p.radius > std::numbers::sqrt2) throw std::invalid_argument("the radius must be in (0, 1.414]");
    g.radius = p.radius;
  } else {
    g.radius = geometric_radius(p.nodes, p.mean_degree);
  }
  Random rng(p.seed);
  g.points.resize(p.nodes);
  for (auto& pt : g.points) pt = {rng.uniform(), rng.uniform()};
  for (;;) {
    link_points(g);
    std::size_t largest = 0;
    const auto label = components(g, &largest);
    std::size_t outside = 0;
    for (std::size_t i = 0; i < g.points.size(); ++i)
      if (label[i] != largest) {
        g.points[i] = {rng.uniform(), rng.uniform()};
        ++outside;
      }
    if (outside == 0) {
      if (p.from_corner) number_from_corner(g);
      return g;
    }
    if (g.rounds == 0 && 10 * (g.points.size() - outside) < g.points.size())
      throw std::runtime_error("geometric graph far from connected: the first drawing's largest component holds " +
                               std::to_string(g.points.size() - outside) + " of " + std::to_string(g.points.size()) +
                               " nodes; raise the radius (or the mean degree)");
    if (g.rounds == p.max_rounds)
      throw std::runtime_error("geometric graph still not connected after " + std::to_string(p.max_rounds) +
                               " rounds: raise the mean degree (or the radius)");
    g.redrawn += outside;
    ++g.rounds;
  }
}

std::size_t reachable_from_first(const GeometricGraph& g) {
  if (g.points.empty()) return 0;
  std::size_t largest = 0;
  const auto label = components(g, &largest);
  return static_cast<std::size_t>(std::count(label.begin(), label.end(), label[0]));
}

}  // namespace dissem::scenario
