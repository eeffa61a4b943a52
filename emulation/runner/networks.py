"""Several emulated networks in one run ([networks]): a host on two of them
is a gateway, with one interface on each (a MANET radio and an HF radio).

Each network is one dissem-emu instance with its own nodes (its node i is
the i-th of the network's scenario node ids, ascending), its own EEL (the
scenario's links between its nodes), its own [emulator] keys (its
[networks.NAME.emulator] over [emulator]), its own subnet (a share of the
run's /24) and its own interface name in each node's namespace. The first
network (in name order) makes the namespaces; a later one adds its TAP to
the namespace of every node an earlier one made (dissem-emu --join).

Without [networks] a scenario has one network of every node through emu0:
the runner then behaves exactly as before (same files, same prefix).

dissem-sim reads [networks] too (src/scenario/network_spec.h): it keeps the
shorthands' links inside networks and checks literal EEL against them, so
the expansion every network takes its links from already holds no link
between nodes that share no network.
"""

from __future__ import annotations

import ipaddress
import math
import re
from dataclasses import dataclass
from typing import Any, Callable

from .eel import LinkEvent
from .errors import ScenarioError
from .expander import Expansion
from .nodes import IDENTIFIER, NodeSet
from .toml_table import Table

INTERFACE_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,15}$")


@dataclass
class Network:
    name: str             # "" for the one implicit network
    nodes: list[int]      # scenario node ids, ascending: the emulator's node i is nodes[i - 1]
    interface: str        # the TAP's name in each of its nodes' namespaces
    emulator: Any         # scenario.EmulatorSpec: [networks.NAME.emulator] over [emulator]

    def local_id(self, node_id: int) -> int:
        return self.nodes.index(node_id) + 1

    def file_stem(self, several: bool) -> str:
        """Emulator files of the run: emulator.*, or emulator-NAME.* with several networks."""
        return f"emulator-{self.name}" if several else "emulator"


def parse(top: Table, nodes: NodeSet, emulator_raw: dict, parse_emulator: Callable[[Table], Any],
          default_emulator: Any) -> list[Network]:
    """[networks.NAME] tables in name order (the order dissem-sim takes them
    in too); one implicit network of every node without them."""
    if not top.has("networks"):
        return [Network("", [n.id for n in nodes.nodes], "emu0", default_emulator)]
    t = top.table("networks")
    if not t.data:
        raise t.error("", "defines no network")
    out: list[Network] = []
    covered: set[int] = set()
    for name in sorted(t.keys()):
        nt = t.table(name, required=True)
        if not IDENTIFIER.match(name):
            raise nt.error("", "network names must be identifiers (letters, digits, '_'): they name placeholders")
        ids = sorted(nodes.select(nt.string_or_list("nodes"), nt.source, nt.path("nodes")))
        if not ids:
            raise nt.error("nodes", "selects no node")
        interface = nt.string("interface", f"emu{len(out)}")
        if not INTERFACE_NAME.match(interface) or interface in (".", ".."):
            raise nt.error("interface", f"{interface!r} is not an interface name (1..15 of [A-Za-z0-9_.-])")
        if any(n.interface == interface for n in out):
            raise nt.error("interface", f"{interface!r} is another network's interface too")
        own = nt.table("emulator")
        merged = dict(emulator_raw)
        merged.update(own.data)
        own.used.update(own.data)
        emulator = parse_emulator(Table(merged, nt.source, nt.path("emulator"))) if own.data else default_emulator
        nt.finish()
        covered.update(ids)
        out.append(Network(name, ids, interface, emulator))
    t.finish()
    for node in nodes.nodes:
        if node.id not in covered:
            raise ScenarioError(top.source, "networks", f"node {node.name} is on no network")
    return out


def joins(network: Network, placed: dict[int, dict[str, dict]]) -> dict[int, str]:
    """The network's nodes an earlier network already placed (`placed`: node
    id -> its ready-line entries by network, in network order), as
    dissem-emu --join takes them: local id -> the namespace they live in."""
    return {network.local_id(g): next(iter(placed[g].values()))["namespace"] for g in network.nodes if g in placed}


def subnets_by_name(run_subnet: ipaddress.IPv4Network, networks: list[Network]) -> dict[str, ipaddress.IPv4Network]:
    """Each network's share of the run's subnet, by name; empty for one network."""
    if len(networks) < 2:
        return {}
    return {n.name: sub for n, sub in zip(networks, subnets(run_subnet, networks))}


def fact_names(networks: list[Network]) -> tuple[set[str], set[str]]:
    """(run placeholders, node placeholders) of several networks:
    subnet_NAME and broadcast_NAME; interface_NAME and address_NAME."""
    if len(networks) < 2:
        return set(), set()
    run = {f"{k}_{n.name}" for n in networks for k in ("subnet", "broadcast")}
    node = {f"{k}_{n.name}" for n in networks for k in ("interface", "address")}
    return run, node


def subnets(run_subnet: ipaddress.IPv4Network, networks: list[Network]) -> list[ipaddress.IPv4Network]:
    """The run's subnet shared out: one network keeps it whole; k networks
    each take one of its 2^ceil(log2 k) equal parts, in name order."""
    if len(networks) == 1:
        return [run_subnet]
    bits = math.ceil(math.log2(len(networks)))
    parts = list(run_subnet.subnets(prefixlen_diff=bits))
    for n, part in zip(networks, parts):
        if len(n.nodes) > part.num_addresses - 2:
            raise ScenarioError("", f"networks.{n.name}", f"{len(n.nodes)} nodes do not fit its share of the "
                                                          f"run's subnet ({part})")
    return parts[:len(networks)]


def prefixes(run_prefix: str, networks: list[Network]) -> list[str]:
    """The run's prefix for the first network, with a letter per later one
    (dissem-emu's prefixes stay within 10 characters: the runner's are 9)."""
    return [run_prefix] + [f"{run_prefix}{chr(ord('b') + i)}" for i in range(len(networks) - 1)]


def restrict(expansion: Expansion, network: Network) -> Expansion:
    """The network's own links, in its emulator's node ids: every event and
    burst loss between two of its nodes (the expansion holds no enabled link
    between nodes that share no network)."""
    local = {g: i + 1 for i, g in enumerate(network.nodes)}
    events = [LinkEvent(e.time_s, local[e.sender], local[e.receiver], e.params) for e in expansion.events
              if e.sender in local and e.receiver in local]
    links = {(local[s], local[r]): p for (s, r), p in expansion.links.items() if s in local and r in local}
    gilbert = {(local[s], local[r]): g for (s, r), g in expansion.gilbert.items() if s in local and r in local}
    outages = {(local[s], local[r]): o for (s, r), o in expansion.outages.items() if s in local and r in local}
    n = len(network.nodes)
    # Pairs with no link at t = 0 pass nothing, as they do across networks.
    complete = len({(e.sender, e.receiver) for e in events if e.time_s <= 0}) == n * (n - 1)
    return Expansion(events=events, default_disconnected=not complete,
                     links=links, gilbert=gilbert, outages=outages, graph=None, positions={})
