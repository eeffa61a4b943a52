"""Load and validate a scenario TOML file into plain objects.

Everything that can be checked before a run is checked here: types, bounds,
unknown keys, node and role references, and every placeholder name, so a
campaign never dies an hour in on a typo. See emulation/README.md for the
reference of every key.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import expander
from . import networks as networks_mod
from . import topology as topology_mod
from .errors import ScenarioError
from .matrix import Profile
from .nodes import (ALL_ROLE, IDENTIFIER, NODE_NAME, Node, NodeSet, role_address_fact_names,
                    role_fact_names)
from .templates import Template
from .toml_table import Param, Table

SCENARIO_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$")

CELL_BUILTINS = {"seed", "n_nodes", "scenario", "cell"}
RUN_BUILTINS = {"system", "subnet", "broadcast", "netmask", "prefix", "rundir", "repo", "scenario_dir",
                "time_limit_s"}
NODE_BUILTINS = {"node", "node_id", "address", "namespace", "interface", "mac", "workdir", "sockdir", "roles"}
RESERVED_MATRIX_KEYS = CELL_BUILTINS | RUN_BUILTINS | NODE_BUILTINS


class Command:
    """A node command: a string run with /bin/sh -c, or a list used as argv."""

    def __init__(self, key: str, parts: list[Template], shell: bool):
        self.key, self.parts, self.shell = key, parts, shell

    def argv(self, names) -> list[str]:
        words = [p.render(names) for p in self.parts]
        return ["/bin/sh", "-c", words[0]] if self.shell else words

    def text(self, names) -> str:
        """For dry runs and READMEs: the command as a person would type it."""
        import shlex
        words = [p.render(names) for p in self.parts]
        return words[0] if self.shell else shlex.join(words)


@dataclass
class RoleSpec:
    role: str
    key: str
    daemon: Command | None
    ready_probe: Command | None
    command: Command | None
    collect: Command | None      # run once the waited commands are done, daemons still up
    wait: bool
    start_delay_s: Param
    env: dict[str, Template]


@dataclass
class System:
    name: str
    description: str
    roles: dict[str, RoleSpec]
    env: dict[str, Template]


@dataclass
class EmulatorSpec:
    queue_packets: Param | None = None
    radio_bps: Param | None = None
    radio_bps_node: dict[int, Param] = field(default_factory=dict)
    shared_channel_bps: Param | None = None
    gilbert: list[Param] | None = None
    half_duplex_bps: Param | None = None
    turnaround_ms: Param | None = None
    max_hold_ms: Param | None = None
    pcap: bool = False
    ready_timeout_s: float = 30.0
    stop_timeout_s: float = 15.0
    duration_margin_s: float = 60.0
    extra_args: list[Template] = field(default_factory=list)


@dataclass
class Scenario:
    path: Path
    name: str
    description: str
    time_limit_s: Param
    seeds: list[int]
    cpu_heavy: bool
    stop_grace_s: float
    ready_timeout_s: float
    nodes: NodeSet
    matrix: dict[str, list[Any]]
    profiles: dict[str, Profile]
    emulator: EmulatorSpec
    systems: dict[str, System]
    cell_names: set[str]
    run_names: set[str]
    node_names: set[str]
    # [nodes.start_delay_s]: node id -> seconds its daemons start after the
    # other nodes are ready (its role commands shift by as much).
    node_start_delay: dict[int, Param] = field(default_factory=dict)
    # [networks], in name order; without it one network of every node (emu0).
    networks: list[networks_mod.Network] = field(default_factory=list)

    @property
    def source(self) -> str:
        return str(self.path)


def load(path: str | Path) -> Scenario:
    path = Path(path)
    src = str(path)
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise ScenarioError(src, "", f"cannot read: {e.strerror}") from None
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ScenarioError(src, "", "is not UTF-8 text") from None
    except tomllib.TOMLDecodeError as e:
        raise ScenarioError(src, "", f"TOML syntax error: {e}") from None
    return parse(data, path)


def parse(data: dict, path: Path) -> Scenario:
    top = Table(data, str(path))
    name = top.string("name")
    if not SCENARIO_NAME.match(name):
        raise top.error("name", f"{name!r} may only use letters, digits, '_', '.', '-' (it names a directory)")
    description = top.string("description", "")
    seeds = _seeds(top, "seeds", [1])
    cpu_heavy = top.boolean("cpu_heavy", False)
    stop_grace_s = top.number("stop_grace_s", 5.0, minimum=0, maximum=600)
    ready_timeout_s = top.number("ready_timeout_s", 30.0, minimum=0.1, maximum=3600)

    nodes, delays_table = _nodes(top.table("nodes", required=True))
    roles = list(nodes.roles)
    matrix = _matrix(top.table("matrix"), role_fact_names(roles) | role_address_fact_names(roles))

    cell_names = set(matrix) | CELL_BUILTINS | role_fact_names(roles)
    run_names = cell_names | RUN_BUILTINS | role_address_fact_names(roles)
    node_names = run_names | NODE_BUILTINS

    time_limit_s = top.param("time_limit_s", cell_names, minimum=0.1)
    profiles = _profiles(top.table("profiles"), matrix, cell_names)
    top.table("topology")  # read by dissem-sim, below
    emulator_table = top.table("emulator")
    emulator = _emulator(emulator_table, nodes, cell_names)
    networks = networks_mod.parse(top, nodes, emulator_table.data, lambda t: _emulator(t, nodes, cell_names),
                                  emulator)
    network_run_names, network_node_names = networks_mod.fact_names(networks)
    run_names |= network_run_names
    node_names |= run_names | network_node_names
    systems = _systems(top.table("systems", required=True), nodes, run_names, node_names)
    delays = _start_delays(delays_table, nodes, cell_names)
    top.finish()
    # [topology] has one reader, dissem-sim's (src/scenario/): it reads the
    # scenario and expands every cell of the matrix, so a topology that
    # fails in any cell fails here, naming its key.
    expander.check(str(path))
    return Scenario(path, name, description, time_limit_s, seeds, cpu_heavy, stop_grace_s, ready_timeout_s,
                    nodes, matrix, profiles, emulator, systems, cell_names, run_names, node_names, delays, networks)


def _start_delays(t: Table, nodes: NodeSet, names) -> dict[int, Param]:
    """{selector = seconds}: late nodes. A node matched twice is an error."""
    out: dict[int, Param] = {}
    for key in t.keys():
        param = t.param(key, names, minimum=0)
        for node_id in nodes.select([key], t.source, t.path(key)):
            if node_id in out:
                raise t.error(key, f"node {nodes.node(node_id).name} already has a start delay")
            out[node_id] = param
    t.finish()
    return out


def _seeds(t: Table, key: str, default) -> list[int]:
    seeds = t.list(key, default)
    if not seeds or not all(isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in seeds):
        raise t.error(key, "expected a non-empty list of non-negative integers")
    if len(set(seeds)) != len(seeds):
        raise t.error(key, "lists a seed twice")
    return list(seeds)


def _nodes(t: Table) -> tuple[NodeSet, Table]:
    names = t.list("names", None)
    count = t.integer("count", len(names) if names else None, minimum=1, maximum=250)
    if count is None:
        raise t.error("count", "is required (or give names)")
    if names is None:
        names = [f"n{i}" for i in range(1, count + 1)]
    if len(names) != count:
        raise t.error("names", f"lists {len(names)} names for {count} nodes")
    for n in names:
        if not isinstance(n, str) or not NODE_NAME.match(n) or n.isdigit():
            raise t.error("names", f"{n!r} is not a valid node name (letters, digits, '_', '.', '-'; "
                                   "not only digits)")
    if len(set(names)) != len(names):
        raise t.error("names", "lists a name twice")
    nodes = [Node(i + 1, n) for i, n in enumerate(names)]
    node_set = NodeSet(nodes, {ALL_ROLE: [n.id for n in nodes]})
    roles_table = t.table("roles")
    for role in roles_table.keys():
        key = roles_table.path(role)
        if not IDENTIFIER.match(role) or role == ALL_ROLE:
            raise ScenarioError(t.source, key, "role names must be identifiers other than 'all'")
        ids = sorted(node_set.select(roles_table.string_or_list(role), t.source, key))
        node_set.roles[role] = ids
    roles_table.finish()
    for role, ids in node_set.roles.items():
        for i in ids:
            node_set.node(i).roles.append(role)
    delays = t.table("start_delay_s")  # read once the placeholder names are known
    t.finish()
    return node_set, delays


def _scalar_list(t: Table, key: str) -> list[Any]:
    values = t.list(key)
    if not values:
        raise t.error(key, "expected a non-empty list of values")
    for v in values:
        if not isinstance(v, (int, float, str, bool)):
            raise t.error(key, f"values must be numbers, text or booleans, found {type(v).__name__}")
    if len(set(map(repr, values))) != len(values):
        raise t.error(key, "lists a value twice")
    return values


def _matrix(t: Table, role_facts: set[str]) -> dict[str, list[Any]]:
    out = {}
    for key in t.keys():
        if not IDENTIFIER.match(key):
            raise t.error(key, "matrix parameter names must be identifiers (letters, digits, '_')")
        if key in RESERVED_MATRIX_KEYS or key in role_facts:
            raise t.error(key, "is a built-in placeholder name; pick another")
        out[key] = _scalar_list(t, key)
    t.finish()
    return out


def _profiles(t: Table, matrix: dict[str, list[Any]], cell_names) -> dict[str, Profile]:
    out = {}
    for name, pt in t.subtables():
        seeds = _seeds(pt, "seeds", None) if pt.has("seeds") else None
        sel = {}
        mt = pt.table("matrix")
        for key in mt.keys():
            if key not in matrix:
                raise mt.error(key, f"is not a matrix parameter (matrix: {', '.join(matrix) or 'none'})")
            values = _scalar_list(mt, key)
            foreign = [v for v in values if v not in matrix[key]]
            if foreign:
                raise mt.error(key, f"{foreign[0]!r} is not among the matrix values {matrix[key]}")
            sel[key] = values
        mt.finish()
        limit = pt.param("time_limit_s", cell_names, default=None, minimum=0.1)
        pt.finish()
        out[name] = Profile(name, seeds, sel, limit)
    return out


def _emulator(t: Table, nodes: NodeSet, names) -> EmulatorSpec:
    spec = EmulatorSpec()
    spec.queue_packets = t.param("queue_packets", names, default=None, kind="int", minimum=1)
    spec.radio_bps = t.param("radio_bps", names, default=None, minimum=0)
    per_node = t.table("radio_bps_node")
    for key in per_node.keys():
        ids = nodes.select([key], t.source, per_node.path(key))
        p = per_node.param(key, names, minimum=0)
        for i in ids:
            spec.radio_bps_node[i] = p
    per_node.finish()
    spec.shared_channel_bps = t.param("shared_channel_bps", names, default=None, minimum=0)
    spec.gilbert = topology_mod.parse_gilbert(t, "gilbert", names)
    spec.half_duplex_bps = t.param("half_duplex_bps", names, default=None, minimum=1)
    spec.turnaround_ms = t.param("turnaround_ms", names, default=None, minimum=0)
    spec.max_hold_ms = t.param("max_hold_ms", names, default=None, minimum=0)
    if spec.half_duplex_bps is None and (spec.turnaround_ms is not None or spec.max_hold_ms is not None):
        raise t.error("turnaround_ms" if spec.turnaround_ms is not None else "max_hold_ms",
                      "only applies with half_duplex_bps (the half-duplex channel)")
    if spec.half_duplex_bps is not None and (spec.shared_channel_bps is not None or spec.radio_bps is not None
                                             or spec.radio_bps_node):
        raise t.error("half_duplex_bps", "excludes radio_bps, radio_bps_node and shared_channel_bps "
                                         "(the half-duplex channel is every node's radio)")
    spec.pcap = t.boolean("pcap", False)
    spec.ready_timeout_s = t.number("ready_timeout_s", 30.0, minimum=0.1, maximum=3600)
    spec.stop_timeout_s = t.number("stop_timeout_s", 15.0, minimum=0.1, maximum=600)
    spec.duration_margin_s = t.number("duration_margin_s", 60.0, minimum=0, maximum=86400)
    extra = t.list("extra_args", [])
    spec.extra_args = [t.make_template(f"extra_args[{i + 1}]", a, names) for i, a in enumerate(extra)]
    t.finish()
    return spec


def _command(t: Table, key: str, names) -> Command | None:
    if not t.has(key):
        return None
    value = t.raw(key)
    path = t.path(key)
    if isinstance(value, str):
        if not value.strip():
            raise t.error(key, "is empty")
        return Command(path, [t.make_template(key, value, names)], shell=True)
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        return Command(path, [t.make_template(f"{key}[{i + 1}]", v, names) for i, v in enumerate(value)],
                       shell=False)
    raise t.error(key, "expected a shell command (text) or an argv list of text")


def _env(t: Table, names) -> dict[str, Template]:
    env = t.table("env")
    out = {}
    for key in env.keys():
        if not re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", key):
            raise env.error(key, "is not a valid environment variable name")
        out[key] = env.template(key, names)
    env.finish()
    return out


def _systems(t: Table, nodes: NodeSet, run_names, node_names) -> dict[str, System]:
    systems = {}
    for name, st in t.subtables():
        if not IDENTIFIER.match(name.replace("-", "_")):
            raise st.error("", "system names must be letters, digits, '_' or '-'")
        description = st.string("description", "")
        env = _env(st, node_names)
        roles_table = st.table("roles", required=True)
        roles = {}
        for role, rt in roles_table.subtables():
            if role not in nodes.roles:
                raise rt.error("", f"unknown role (roles: {', '.join(nodes.roles)})")
            spec = RoleSpec(role, rt.prefix,
                            daemon=_command(rt, "daemon", node_names),
                            ready_probe=_command(rt, "ready_probe", node_names),
                            command=_command(rt, "command", node_names),
                            collect=_command(rt, "collect", node_names),
                            wait=rt.boolean("wait", True),
                            start_delay_s=rt.param("start_delay_s", run_names, default=0.0, minimum=0),
                            env=_env(rt, node_names))
            if not (spec.daemon or spec.command or spec.collect):
                raise rt.error("", "needs a daemon, a command or a collect")
            if spec.ready_probe and not spec.daemon:
                raise rt.error("ready_probe", "only makes sense with a daemon in the same role")
            rt.finish()
            roles[role] = spec
        roles_table.finish()
        if not roles:
            raise roles_table.error("", "lists no roles")
        st.finish()
        systems[name] = System(name, description, roles, env)
    if not systems:
        raise t.error("", "define at least one [systems.<name>]")
    return systems
