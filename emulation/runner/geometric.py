"""Seeded random geometric graphs, for the emulator's "geometric" topology
and the simulator scenarios made by emulation/tools/rgg-scenario.

n points uniform in the unit square (Python's random.Random(seed), whose
Mersenne Twister sequence is stable across Python versions); two nodes are
linked when they lie within `radius` of each other. A drawing that is not
connected is discarded and the next seed (seed + 1, seed + 2, ...) drawn,
so a (n, radius, seed) triple always names the same connected graph.
Nodes are numbered 1..n by distance from the corner (0, 0): node 1 is the
corner node, node n the farthest from it, so scenarios can name a corner
publisher and far subscribers by number.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

MAX_DRAWS = 1000


@dataclass(frozen=True)
class GeometricGraph:
    seed: int                                # the seed of the drawing kept
    positions: list[tuple[float, float]]     # node i + 1 at positions[i]
    edges: list[tuple[int, int]]             # (a, b), a < b, 1-based

    def neighbours(self) -> dict[int, set[int]]:
        out: dict[int, set[int]] = {i + 1: set() for i in range(len(self.positions))}
        for a, b in self.edges:
            out[a].add(b)
            out[b].add(a)
        return out

    def hops_from(self, source: int) -> dict[int, int]:
        nbrs = self.neighbours()
        dist = {source: 0}
        frontier = [source]
        while frontier:
            nxt = []
            for u in frontier:
                for v in sorted(nbrs[u]):
                    if v not in dist:
                        dist[v] = dist[u] + 1
                        nxt.append(v)
            frontier = nxt
        return dist


def _draw(n: int, radius: float, seed: int) -> GeometricGraph:
    rng = random.Random(seed)
    points = sorted(((rng.random(), rng.random()) for _ in range(n)), key=lambda p: (math.hypot(*p), p))
    edges = [(a + 1, b + 1) for a in range(n) for b in range(a + 1, n)
             if math.dist(points[a], points[b]) <= radius]
    return GeometricGraph(seed, points, edges)


def geometric_graph(n: int, radius: float, seed: int) -> GeometricGraph:
    """The first connected drawing from `seed` on; ValueError if none of
    MAX_DRAWS is (the radius is too small for n)."""
    if n < 1 or not 0 < radius <= math.sqrt(2):
        raise ValueError(f"need n >= 1 and 0 < radius <= 1.414 (got n = {n}, radius = {radius})")
    for k in range(MAX_DRAWS):
        g = _draw(n, radius, seed + k)
        if len(g.hops_from(1)) == n:
            return g
    raise ValueError(f"no connected graph of {n} nodes within radius {radius} in {MAX_DRAWS} draws from seed {seed}")
