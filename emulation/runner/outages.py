"""Disconnection processes: random outages of links, drawn per run.

A `[[topology.outage]]` entry gives a set of links (from/to selectors) an
alternating renewal process: up for an exponential time of mean
`mean_up_s`, then down (passing nothing) for an exponential time of mean
`mean_down_s`, and so on until the end of the run, starting up at
`start_s`. With `both_directions` (the default) a link and its reverse go
down together, as a radio that loses its peer does.

Read and checked here; drawn by dissem-sim's expander (src/scenario/outages.h,
through expander.py) from the run's seed, the entry's index and the link,
so the same seed gives the same outages in every engine, and adding a link
or an entry never moves another's. The outages become ordinary EEL events
(the link's parameters in force, at 100 % loss while down), so they reach
dissem-emu and an EMANE testbed alike, and compose with the topology's own
timed changes.
"""

from __future__ import annotations

from dataclasses import dataclass

from .nodes import NodeSet
from .toml_table import Param, Table


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
