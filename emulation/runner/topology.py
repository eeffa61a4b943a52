"""Topology section of a scenario: shorthands (full, line, grid,
partition-heal, geometric) or literal EEL, per-pair overrides, timed link
changes, random outages, burst loss. Read and checked here when the scenario
loads (so a campaign never starts on a typo, and engines.py can say what an
engine cannot honour); expanded, per cell, by dissem-sim (expander.py), the
one expander of the scenario language.

Only links of the shorthand exist. Overrides and timed changes modify
existing links (one that matches none is an error: it is almost always a
typo); "enabled = false" disables the matched directions, "asymmetric =
true" disables the reverse of each matched direction.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from . import eel, expander, outages
from .expander import Expansion
from .nodes import NodeSet
from .templates import Template
from .toml_table import Param, Table

KINDS = ("full", "line", "grid", "partition-heal", "geometric", "eel")
LINK_KEYS = ("capacity_bps", "reliability", "latency_ms", "jitter_ms", "dup_pct")
LINK_DEFAULTS = {"capacity_bps": 0, "reliability": 1.0, "latency_ms": 0.0, "jitter_ms": 0.0, "dup_pct": 0.0}
LINK_BOUNDS = {"capacity_bps": (0, None), "reliability": (0.0, 1.0), "latency_ms": (0, None),
               "jitter_ms": (0, None), "dup_pct": (0, None)}


@dataclass
class Change:
    """An override ([[topology.override]]) or a timed change ([[topology.event]])."""
    key: str
    senders: set[int]
    receivers: set[int]
    link: dict[str, Param]
    enabled: Param | None = None
    asymmetric: Param | None = None
    at_s: Param | None = None
    gilbert: list[Param] | None = None


@dataclass
class TopologySpec:
    source: str
    kind: str
    defaults: dict[str, Param]
    rows: int = 0
    cols: int = 0
    clusters: tuple[int, int] = (0, 0)
    bridge: tuple[int, int] = (0, 0)
    partition_at_s: Param | None = None
    heal_at_s: Param | None = None
    eel_text: Template | None = None
    eel_key: str = ""
    eel_convention: str = eel.EMULATOR_CONVENTION
    default_disconnected: Param | None = None
    radius: float | None = None                  # geometric: link range in the unit square,
    degree: float | None = None                  # or the target mean degree
    graph_seed: int = 0                          # geometric: the drawing's seed (not the run's)
    overrides: list[Change] = field(default_factory=list)
    events: list[Change] = field(default_factory=list)
    gilbert: list[Param] | None = None           # burst loss on every link of the shorthand
    outages: list[outages.OutageSpec] = field(default_factory=list)


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


def _link_params(table: Table, names, with_defaults: bool) -> dict[str, Param]:
    out = {}
    for key in LINK_KEYS:
        lo, hi = LINK_BOUNDS[key]
        default = LINK_DEFAULTS[key] if with_defaults else None
        p = table.param(key, names, default=default, minimum=lo, maximum=hi)
        if p is not None:
            out[key] = p
    return out


def _change(t: Table, nodes: NodeSet, names, timed: bool) -> Change:
    senders = nodes.select(t.string_or_list("from", ["*"]), t.source, t.path("from"))
    receivers = nodes.select(t.string_or_list("to", ["*"]), t.source, t.path("to"))
    change = Change(t.prefix, senders, receivers, _link_params(t, names, with_defaults=False),
                    enabled=t.param("enabled", names, default=None, kind="bool"))
    if timed:
        change.at_s = t.param("at_s", names, minimum=0)
        if t.has("gilbert"):
            raise t.error("gilbert", "burst loss is set per link at t = 0 (topology or [[topology.override]]), "
                                     "not in timed events")
    else:
        change.asymmetric = t.param("asymmetric", names, default=None, kind="bool")
        change.gilbert = parse_gilbert(t, "gilbert", names)
    t.finish()
    return change


def parse(table: Table, nodes: NodeSet, names: set[str], scenario_dir) -> TopologySpec:
    """Read [topology]; names are the placeholders known per cell."""
    src = table.source
    has_literal = table.has("eel") or table.has("eel_file")
    kind = table.string("kind", "eel" if has_literal else "full", choices=KINDS)
    spec = TopologySpec(src, kind, _link_params(table, names, with_defaults=True))
    n = len(nodes)
    spec.default_disconnected = table.param("default_disconnected", names, default=None, kind="bool")
    spec.gilbert = parse_gilbert(table, "gilbert", names)

    if kind == "grid":
        spec.rows = table.integer("rows", minimum=1)
        spec.cols = table.integer("cols", minimum=1)
        if spec.rows * spec.cols != n:
            raise table.error("rows", f"{spec.rows} x {spec.cols} grid needs {spec.rows * spec.cols} nodes, "
                                      f"the scenario has {n}")
    elif kind == "geometric":
        # The same graph in every cell and system: its seed is the topology's
        # own, not the run's (src/scenario/geometric_graph.h draws it).
        if table.has("radius") == table.has("degree"):
            raise table.error("radius", "give exactly one of radius and degree (the target mean degree)")
        spec.radius = table.number("radius", None, minimum=0.01, maximum=1.414)
        spec.degree = table.number("degree", None, minimum=0.001, maximum=max(n - 1, 0.001))
        spec.graph_seed = table.integer("graph_seed", default=1, minimum=0)
    elif kind == "partition-heal":
        clusters = table.list("clusters")
        if (len(clusters) != 2 or not all(isinstance(c, int) and not isinstance(c, bool) and c >= 1
                                          for c in clusters)):
            raise table.error("clusters", "expected two cluster sizes, e.g. [3, 3]")
        if sum(clusters) != n:
            raise table.error("clusters", f"sizes {clusters[0]} + {clusters[1]} != {n} nodes")
        spec.clusters = (clusters[0], clusters[1])
        bridge = table.string_or_list("bridge", [str(clusters[0]), str(clusters[0] + 1)])
        if len(bridge) != 2:
            raise table.error("bridge", "expected two nodes, one per cluster")
        a = nodes.resolve_one(bridge[0], src, table.path("bridge"))
        b = nodes.resolve_one(bridge[1], src, table.path("bridge"))
        if len(a) != 1 or len(b) != 1 or not (a[0] <= clusters[0] < b[0]):
            raise table.error("bridge", f"first node must be in cluster A (ids 1..{clusters[0]}), "
                                        f"second in cluster B (ids {clusters[0] + 1}..{n})")
        spec.bridge = (a[0], b[0])
        spec.partition_at_s = table.param("partition_at_s", names, minimum=0)
        spec.heal_at_s = table.param("heal_at_s", names, minimum=0)
        p, h = spec.partition_at_s.constant, spec.heal_at_s.constant
        if p is not None and h is not None and h <= p:
            raise table.error("heal_at_s", f"{h:g} is not after partition_at_s {p:g}")
    elif kind == "eel":
        if table.has("eel") == table.has("eel_file"):
            raise table.error("eel", "give exactly one of eel (inline text) and eel_file")
        spec.eel_convention = table.string("eel_convention", eel.EMULATOR_CONVENTION, choices=eel.CONVENTIONS)
        if table.has("eel"):
            spec.eel_key = table.path("eel")
            spec.eel_text = table.template("eel", names)
        else:
            spec.eel_key = table.path("eel_file")
            rel = table.string("eel_file")
            path = (scenario_dir / rel)
            try:
                text = path.read_text()
            except OSError as e:
                raise table.error("eel_file", f"cannot read {path}: {e.strerror}") from None
            spec.eel_text = table.make_template("eel_file", text, names)

    spec.overrides = [_change(t, nodes, names, timed=False) for t in table.tables("override")]
    spec.events = [_change(t, nodes, names, timed=True) for t in table.tables("event")]
    spec.outages = [outages.parse(t, nodes, names) for t in table.tables("outage")]
    if kind == "eel" and (spec.overrides or spec.events or spec.outages or spec.gilbert):
        which = next(k for k, v in (("override", spec.overrides), ("event", spec.events), ("outage", spec.outages),
                                    ("gilbert", spec.gilbert)) if v)
        raise table.error(which, "overrides, timed events, outages and burst loss apply to shorthands; "
                                 "write links into the EEL and burst loss into [emulator] instead")
    table.finish()
    return spec


# -- expansion --------------------------------------------------------------------

def expand(scenario, names: Mapping[str, Any], horizon_s: float | None = None) -> Expansion:
    """Link events for one cell of `scenario` (names: the cell's placeholder
    values, seed included), from dissem-sim; random outages are drawn up to
    horizon_s (the run's length; None: no outages are drawn)."""
    return expander.expand(str(scenario.path), list(scenario.matrix), names, horizon_s)
