"""Topology section of a scenario: shorthands (full, line, grid,
partition-heal, geometric) or literal EEL, per-pair overrides, timed link changes;
and their expansion, per cell, into directed link events.

Only links of the shorthand exist. Overrides and timed changes modify
existing links (one that matches none is an error: it is almost always a
typo); "enabled = false" disables the matched directions, "asymmetric =
true" disables the reverse of each matched direction.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from . import eel, geometric, outages
from .eel import LinkEvent, LinkParams
from .errors import ScenarioError, TemplateError
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
    radius: float = 0.0                          # geometric: link range in the unit square
    graph_seed: int = 0                          # geometric: the drawing's seed (not the run's)
    overrides: list[Change] = field(default_factory=list)
    events: list[Change] = field(default_factory=list)
    gilbert: list[Param] | None = None           # burst loss on every link of the shorthand
    outages: list[outages.OutageSpec] = field(default_factory=list)


@dataclass
class Expansion:
    events: list[LinkEvent]
    default_disconnected: bool
    links: dict[tuple[int, int], LinkParams]   # state at t = 0
    # Per link: Gilbert-Elliott (p_good_to_bad, p_bad_to_good, loss_in_bad as a probability).
    gilbert: dict[tuple[int, int], tuple[float, float, float]] = field(default_factory=dict)
    # Per link: the random outages drawn for this run, [start, end) in seconds.
    outages: dict[tuple[int, int], list[tuple[float, float]]] = field(default_factory=dict)


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
        # own, not the run's (runner/geometric.py).
        spec.radius = table.number("radius", minimum=0.01, maximum=1.414)
        spec.graph_seed = table.integer("graph_seed", default=1, minimum=0)
        try:
            geometric.geometric_graph(n, spec.radius, spec.graph_seed)
        except ValueError as e:
            raise table.error("radius", str(e)) from None
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

def base_links(spec: TopologySpec, n: int) -> set[tuple[int, int]]:
    pairs: set[tuple[int, int]] = set()

    def both(a, b):
        pairs.add((a, b))
        pairs.add((b, a))

    if spec.kind == "full":
        for a in range(1, n + 1):
            for b in range(a + 1, n + 1):
                both(a, b)
    elif spec.kind == "line":
        for a in range(1, n):
            both(a, a + 1)
    elif spec.kind == "grid":
        for r in range(spec.rows):
            for c in range(spec.cols):
                me = r * spec.cols + c + 1
                if c + 1 < spec.cols:
                    both(me, me + 1)
                if r + 1 < spec.rows:
                    both(me, me + spec.cols)
    elif spec.kind == "geometric":
        for a, b in geometric.geometric_graph(n, spec.radius, spec.graph_seed).edges:
            both(a, b)
    elif spec.kind == "partition-heal":
        size_a = spec.clusters[0]
        for lo, hi in ((1, size_a), (size_a + 1, n)):
            for a in range(lo, hi + 1):
                for b in range(a + 1, hi + 1):
                    both(a, b)
        both(*spec.bridge)
    return pairs


def _resolve_all(params: dict[str, Param], names) -> dict[str, Any]:
    return {k: p.resolve(names) for k, p in params.items()}


def _to_link(values: dict[str, Any]) -> LinkParams:
    return LinkParams.from_scenario(values["capacity_bps"], values["reliability"], values["latency_ms"],
                                    values["jitter_ms"], values["dup_pct"])


def _matched(change: Change, links) -> list[tuple[int, int]]:
    matched = sorted(p for p in links if p[0] in change.senders and p[1] in change.receivers)
    return matched


def expand(spec: TopologySpec, names: Mapping[str, Any], n: int, horizon_s: float | None = None) -> Expansion:
    """Link events for one cell (names: the cell's placeholder values, seed
    included); random outages are drawn up to horizon_s (the run's length;
    None: no outages are drawn)."""
    if spec.kind == "eel":
        return _expand_literal(spec, names, n)
    links = base_links(spec, n)
    defaults = _resolve_all(spec.defaults, names)
    values = {p: dict(defaults) for p in links}
    disabled: set[tuple[int, int]] = set()
    gilbert = {p: resolve_gilbert(spec.gilbert, names) for p in links} if spec.gilbert else {}
    for ov in spec.overrides:
        matched = _matched(ov, links)
        if not matched:
            raise ScenarioError(spec.source, ov.key, f"matches no link of the {spec.kind} topology")
        update = _resolve_all(ov.link, names)
        if ov.gilbert:
            gilbert.update({p: resolve_gilbert(ov.gilbert, names) for p in matched})
        for p in matched:
            values[p].update(update)
        if ov.enabled is not None:
            if ov.enabled.resolve(names):
                disabled.difference_update(matched)
            else:
                disabled.update(matched)
        if ov.asymmetric is not None and ov.asymmetric.resolve(names):
            disabled.update((r, s) for (s, r) in matched if (r, s) in links)

    t0 = {p: (_to_link(values[p]).disable() if p in disabled else _to_link(values[p])) for p in links}
    events = [LinkEvent(0.0, s, r, t0[(s, r)]) for (s, r) in sorted(links)]

    if spec.kind == "partition-heal":
        cut = spec.partition_at_s.resolve(names)
        heal = spec.heal_at_s.resolve(names)
        if heal <= cut:
            raise ScenarioError(spec.source, spec.heal_at_s.key, f"{heal:g} is not after partition_at_s {cut:g}")
        a, b = spec.bridge
        for pair in ((a, b), (b, a)):
            events.append(LinkEvent(float(cut), *pair, t0[pair].disable()))
            events.append(LinkEvent(float(heal), *pair, t0[pair]))

    for ch in spec.events:
        matched = _matched(ch, links)
        if not matched:
            raise ScenarioError(spec.source, ch.key, f"matches no link of the {spec.kind} topology")
        at = float(ch.at_s.resolve(names))
        update = _resolve_all(ch.link, names)
        enabled = ch.enabled.resolve(names) if ch.enabled is not None else None
        for p in matched:
            params = _to_link({**values[p], **update})
            off = (p in disabled) if enabled is None else not enabled
            events.append(LinkEvent(at, *p, params.disable() if off else params))

    events.sort(key=lambda e: (e.time_s, e.sender, e.receiver))
    down = (outages.intervals(spec.outages, links, names, horizon_s, spec.source)
            if spec.outages and horizon_s is not None else {})
    events = outages.apply(events, down)
    complete = len(links) == n * (n - 1)
    dd = spec.default_disconnected.resolve(names) if spec.default_disconnected else not complete
    return Expansion(events, dd, t0, gilbert, down)


def _expand_literal(spec: TopologySpec, names, n: int) -> Expansion:
    try:
        text = spec.eel_text.render(names)
        events = eel.read(text, spec.eel_convention)
    except (TemplateError, eel.EELError) as e:
        raise ScenarioError(spec.source, spec.eel_key, str(e)) from None
    for ev in events:
        if max(ev.sender, ev.receiver) > n:
            raise ScenarioError(spec.source, spec.eel_key,
                                f"mentions nem:{max(ev.sender, ev.receiver)} but the scenario has {n} nodes")
    events.sort(key=lambda e: (e.time_s, e.sender, e.receiver))
    t0 = {(e.sender, e.receiver): e.params for e in events if e.time_s == 0}
    complete = len(t0) == n * (n - 1)
    dd = spec.default_disconnected.resolve(names) if spec.default_disconnected else not complete
    return Expansion(events, dd, t0)
