"""Topology section of a scenario: shorthands (full, line, grid,
partition-heal, geometric) or literal EEL, per-pair overrides, timed link
changes, random outages, burst loss. dissem-sim is its one reader and its
one expander (src/scenario/): `dissem-sim check` reads it and expands every
cell when the scenario loads (scenario.py), so a campaign never starts on a
typo, and `dissem-sim expand` gives each run its links and timeline
(expander.py); engines.py says from the expansion what an engine cannot
honour. What is left here: the link keys' names, the burst-loss triple as
[emulator] writes it too, and the expansion of a cell.
"""

from __future__ import annotations

from typing import Any, Mapping

from . import expander
from .expander import Expansion
from .toml_table import Param, Table

LINK_KEYS = ("capacity_bps", "reliability", "latency_ms", "jitter_ms", "dup_pct")


def parse_gilbert(t: Table, key: str, names) -> list[Param] | None:
    """[p_good_to_bad, p_bad_to_good, loss_pct_in_bad] (or "a,b,c"): the
    burst-loss chain of dissem-emu; the loss in the bad state in percent,
    as link loss is written everywhere else."""
    if not t.has(key):
        return None
    g = t.raw(key)
    if isinstance(g, str):
        g = [x.strip() for x in g.split(",")]
    if not isinstance(g, list) or len(g) != 3:
        raise t.error(key, "expected [p_good_to_bad, p_bad_to_good, loss_pct_in_bad]")
    bounds = [(0, 1), (0, 1), (0, 100)]
    return [t.make_param(f"{key}[{i + 1}]", v, names, minimum=lo, maximum=hi)
            for i, (v, (lo, hi)) in enumerate(zip(g, bounds))]


def resolve_gilbert(params: list[Param], names) -> tuple[float, float, float]:
    a, b, loss_pct = (float(p.resolve(names)) for p in params)
    return a, b, loss_pct / 100.0


# -- expansion --------------------------------------------------------------------

def expand(scenario, names: Mapping[str, Any], horizon_s: float | None = None) -> Expansion:
    """Link events for one cell of `scenario` (names: the cell's placeholder
    values, seed included), from dissem-sim; random outages are drawn up to
    horizon_s (the run's length; None: no outages are drawn)."""
    return expander.expand(str(scenario.path), list(scenario.matrix), names, horizon_s)
