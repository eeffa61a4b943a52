"""The placeholder values of a cell, a run and a node.

Three layers, each a superset of the one before:
  cell: matrix parameters, seed, n_nodes, scenario, cell, <role>_ids/_names/_count/_id
  run:  + system, subnet, broadcast, netmask, prefix, rundir, repo, scenario_dir,
          time_limit_s, <role>_addresses/_address
  node: + node, node_id, address, namespace, interface, mac, workdir, sockdir, roles

sockdir exists because a Unix socket path must fit in 108 bytes, which a
path under the results tree rarely does: it is /tmp/<prefix>/<node id>.
"""

from __future__ import annotations

import ipaddress
import tempfile
from pathlib import Path
from typing import Any

from .matrix import Cell
from .nodes import Node
from .scenario import Scenario

REPO_ROOT = Path(__file__).resolve().parents[2]


def cell_facts(scenario: Scenario, cell: Cell, seed: int) -> dict[str, Any]:
    facts: dict[str, Any] = dict(cell.params)
    facts.update(seed=seed, n_nodes=len(scenario.nodes), scenario=scenario.name, cell=cell.id)
    facts.update(scenario.nodes.role_facts())
    return facts


def run_facts(scenario: Scenario, cell_names: dict[str, Any], system: str, prefix: str,
              subnet: ipaddress.IPv4Network, rundir: Path, time_limit_s: float,
              addresses: dict[int, str],
              network_subnets: dict[str, ipaddress.IPv4Network] | None = None) -> dict[str, Any]:
    """With several networks, subnet, broadcast and netmask are the first
    network's, and subnet_NAME and broadcast_NAME each network's."""
    if network_subnets:
        subnet = next(iter(network_subnets.values()))
    facts = dict(cell_names)
    facts.update(system=system, subnet=str(subnet), broadcast=str(subnet.broadcast_address),
                 netmask=str(subnet.netmask), prefix=prefix, rundir=str(rundir), repo=str(REPO_ROOT),
                 scenario_dir=str(scenario.path.parent.resolve()), time_limit_s=time_limit_s)
    for name, sub in (network_subnets or {}).items():
        facts[f"subnet_{name}"] = str(sub)
        facts[f"broadcast_{name}"] = str(sub.broadcast_address)
    facts.update(scenario.nodes.role_address_facts(addresses))
    return facts


def sockdir_for(prefix: str, node_id: int) -> Path:
    return Path(tempfile.gettempdir()) / prefix / str(node_id)


def node_facts(run_names: dict[str, Any], node: Node, emu_node: dict[str, Any], workdir: Path,
               sockdir: Path | None = None, by_network: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    """emu_node: the node's entry in (its first network's) ready line;
    by_network: with several networks, its entry in each network it is on,
    which give interface_NAME and address_NAME."""
    facts = dict(run_names)
    facts.update(node=node.name, node_id=node.id, address=emu_node["address"],
                 namespace=emu_node.get("namespace", ""), interface=emu_node.get("interface", ""),
                 mac=emu_node.get("mac", ""), workdir=str(workdir),
                 sockdir=str(sockdir if sockdir is not None else sockdir_for(run_names["prefix"], node.id)),
                 roles=",".join(node.roles))
    for name, entry in (by_network or {}).items():
        facts[f"interface_{name}"] = entry.get("interface", "")
        facts[f"address_{name}"] = entry["address"]
    return facts


def predicted_layout(prefix: str, subnet: ipaddress.IPv4Network, n: int, interface: str = "emu0") -> list[dict]:
    """What the emulator's ready line will say (used by --dry-run)."""
    hosts = list(subnet.hosts())
    return [{"id": i, "namespace": f"{prefix}-n{i}", "interface": interface, "address": str(hosts[i - 1]),
             "mac": ""} for i in range(1, n + 1)]
