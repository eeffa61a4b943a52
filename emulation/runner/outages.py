"""Disconnection processes: random outages of links, drawn per run.

A `[[topology.outage]]` entry gives a set of links (from/to selectors) an
alternating renewal process: up for an exponential time of mean
`mean_up_s`, then down (passing nothing) for an exponential time of mean
`mean_down_s`, and so on until the end of the run, starting up at
`start_s`. With `both_directions` (the default) a link and its reverse go
down together, as a radio that loses its peer does. Draws are seeded from
the run's seed, the entry's index and the link, so the same seed gives the
same outages, and adding a link or an entry never moves another's.

The outages become ordinary EEL events (the link's parameters in force, at
100 % loss while down), so they reach dissem-emu and an EMANE testbed alike,
and compose with the topology's own timed changes.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Mapping

from .eel import LinkEvent, LinkParams
from .errors import ScenarioError
from .nodes import NodeSet
from .toml_table import Param, Table

# Bounds the number of outages per link and run, so that a typo (a mean of
# 0.001 s over a day) fails loudly instead of writing millions of events.
MAX_OUTAGES_PER_LINK = 10_000


@dataclass
class OutageSpec:
    key: str
    senders: set[int]
    receivers: set[int]
    mean_up_s: Param
    mean_down_s: Param
    start_s: Param
    both_directions: bool


def parse(t: Table, nodes: NodeSet, names) -> OutageSpec:
    spec = OutageSpec(t.prefix,
                      nodes.select(t.string_or_list("from", ["*"]), t.source, t.path("from")),
                      nodes.select(t.string_or_list("to", ["*"]), t.source, t.path("to")),
                      mean_up_s=t.param("mean_up_s", names, minimum=0.001),
                      mean_down_s=t.param("mean_down_s", names, minimum=0.001),
                      start_s=t.param("start_s", names, default=0.0, minimum=0),
                      both_directions=t.boolean("both_directions", True))
    t.finish()
    return spec


def draw(seed: int, index: int, pair: tuple[int, int], mean_up_s: float, mean_down_s: float, start_s: float,
         horizon_s: float, source: str = "", key: str = "") -> list[tuple[float, float]]:
    """Down intervals [start, end) of one link before horizon_s."""
    rng = random.Random(f"dissem-outage/{seed}/{index}/{pair[0]}-{pair[1]}")
    out: list[tuple[float, float]] = []
    t = start_s
    while True:
        t += rng.expovariate(1.0 / mean_up_s)
        if t >= horizon_s:
            return out
        end = t + rng.expovariate(1.0 / mean_down_s)
        out.append((round(t, 6), round(end, 6)))
        if len(out) > MAX_OUTAGES_PER_LINK:
            raise ScenarioError(source, key, f"more than {MAX_OUTAGES_PER_LINK} outages per link before "
                                             f"{horizon_s:g} s: check mean_up_s and mean_down_s")
        t = end


def intervals(specs: list[OutageSpec], links, names: Mapping[str, Any], horizon_s: float,
              source: str) -> dict[tuple[int, int], list[tuple[float, float]]]:
    """Per directed link, its merged down intervals (sorted, disjoint)."""
    seed = int(names.get("seed", 0))
    per_link: dict[tuple[int, int], list[tuple[float, float]]] = {}
    for index, spec in enumerate(specs):
        matched = sorted(p for p in links if p[0] in spec.senders and p[1] in spec.receivers)
        if not matched:
            raise ScenarioError(source, spec.key, "matches no link of the topology")
        up, down = float(spec.mean_up_s.resolve(names)), float(spec.mean_down_s.resolve(names))
        start = float(spec.start_s.resolve(names))
        done: set[tuple[int, int]] = set()
        for pair in matched:
            if pair in done:
                continue
            canonical = (min(pair), max(pair)) if spec.both_directions else pair
            drawn = draw(seed, index, canonical, up, down, start, horizon_s, source, spec.key)
            targets = [pair] + ([(pair[1], pair[0])] if spec.both_directions and (pair[1], pair[0]) in links else [])
            for p in targets:
                per_link.setdefault(p, []).extend(drawn)
                done.add(p)
    return {p: _merge(v) for p, v in per_link.items()}


def _merge(spans: list[tuple[float, float]]) -> list[tuple[float, float]]:
    out: list[tuple[float, float]] = []
    for s, e in sorted(spans):
        if out and s <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], e))
        else:
            out.append((s, e))
    return out


def apply(events: list[LinkEvent], down: dict[tuple[int, int], list[tuple[float, float]]]) -> list[LinkEvent]:
    """The events with every outage folded in: while a link is down, each of
    its events is written disabled; at an outage's start and end, the
    parameters in force then are written (disabled, then as they are)."""
    if not down:
        return events
    by_link: dict[tuple[int, int], list[LinkEvent]] = {}
    for e in events:
        by_link.setdefault((e.sender, e.receiver), []).append(e)
    out = [e for e in events if (e.sender, e.receiver) not in down]
    for pair, spans in down.items():
        own = sorted(by_link.get(pair, []), key=lambda e: e.time_s)
        out.extend(_fold(pair, own, spans))
    out.sort(key=lambda e: (e.time_s, e.sender, e.receiver))
    return out


def _fold(pair, own: list[LinkEvent], spans) -> list[LinkEvent]:
    def in_force(t: float) -> LinkParams:
        current = LinkParams()
        for e in own:
            if e.time_s > t:
                break
            current = e.params
        return current

    def is_down(t: float) -> bool:
        return any(s <= t < e for s, e in spans)

    out = [LinkEvent(e.time_s, *pair, e.params.disable() if is_down(e.time_s) else e.params) for e in own]
    for s, e in spans:
        out.append(LinkEvent(s, *pair, in_force(s).disable()))
        out.append(LinkEvent(e, *pair, in_force(e).disable() if is_down(e) else in_force(e)))
    # At equal times the outage boundary wins over an event of the same instant (written after it).
    return out
