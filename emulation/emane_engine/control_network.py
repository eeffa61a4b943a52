"""The namespaces an EMANE run lives in, and the control network between them.

One run with prefix P and N nodes makes:
- P-c: the control namespace. It holds bridge `ctlbr` (10.254.0.254/24),
  where the event service runs and EMANE's over-the-air (OTA) and event
  multicast groups meet. One bridge per run: parallel runs never hear each
  other.
- P-n<i> for each node i: `ctl0` (10.254.0.i/24, a veth whose peer is on the
  bridge) and, once the node's emane process is up, its virtual transport's
  TAP `emane0`. IPv6 is off, as under dissem-emu, so the experiment
  interface carries only the experiment's traffic.
- In EMANE's distributed mode (`hosts` > 0), P-h<k> for each host k holds
  `ctl0` (10.254.0.k/24) and one emane with that host's share of the NEMs;
  each NEM's TAP is moved into its node's namespace P-n<i> (which then has
  no control interface: the node's applications see only emane0).

No route for multicast is added in a node namespace: EMANE names its
control device for both groups, and an application that does not name its
interface cannot reach the control network by accident.
"""

from __future__ import annotations

import ipaddress
import json
import os
import subprocess
from pathlib import Path

NETNS_DIR = Path("/var/run/netns")
CONTROL_SUBNET = ipaddress.IPv4Network("10.254.0.0/24")
CONTROL_DEVICE = "ctl0"
BRIDGE = "ctlbr"
BRIDGE_ADDRESS = "10.254.0.254"
CONTROL_MTU = 9000   # OTA packets carry a whole 1,514-byte frame plus EMANE's headers: no fragments


class NetworkError(Exception):
    pass


def _ip(args: list[str], batch: str | None = None, timeout: float = 30.0) -> str:
    argv = ["ip", *args] + (["-batch", "-"] if batch is not None else [])
    try:
        out = subprocess.run(argv, input=batch, capture_output=True, text=True, timeout=timeout)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise NetworkError(f"{' '.join(argv)}: {e}") from None
    if out.returncode != 0:
        raise NetworkError(f"{' '.join(argv)}: {out.stderr.strip() or out.stdout.strip()}")
    return out.stdout


def node_namespace(prefix: str, node: int) -> str:
    return f"{prefix}-n{node}"


def control_namespace(prefix: str) -> str:
    return f"{prefix}-c"


def control_address(node: int) -> str:
    return str(CONTROL_SUBNET.network_address + node)


def host_namespace(prefix: str, host: int) -> str:
    return f"{prefix}-h{host}"


def owned_namespaces(prefix: str) -> list[str]:
    """Every namespace of this prefix: P-c, P-h<digits> and P-n<digits>."""
    try:
        names = os.listdir(NETNS_DIR)
    except OSError:
        return []
    out = []
    for name in names:
        if name == control_namespace(prefix):
            out.append(name)
        elif name[:len(prefix) + 2] in (prefix + "-n", prefix + "-h") and name[len(prefix) + 2:].isdigit():
            out.append(name)
    return sorted(out)


def _sysctl(ns: str, key: str, value: str) -> None:
    path = Path("/proc/sys") / key.replace(".", "/")
    subprocess.run(["ip", "netns", "exec", ns, "sh", "-c", f"echo {value} > {path}"],
                   capture_output=True, timeout=10, check=False)


def create(prefix: str, nodes: int, hosts: int = 0) -> None:
    """Makes the control namespace with its bridge, the node namespaces,
    and the control interfaces: one per node, or one per host namespace
    when `hosts` > 0. Refuses when any of them exists."""
    if nodes < 1 or nodes > 253:
        raise NetworkError(f"{nodes} nodes: the control network holds 1..253")
    if hosts < 0 or hosts > nodes:
        raise NetworkError(f"{hosts} hosts for {nodes} nodes: 1..{nodes}")
    left = owned_namespaces(prefix)
    if left:
        raise NetworkError(f"namespaces of prefix {prefix} exist already ({', '.join(left)}): "
                           f"dissem-emane --cleanup {prefix}")
    ctl = control_namespace(prefix)
    members = [host_namespace(prefix, k) for k in range(1, hosts + 1)] if hosts else \
        [node_namespace(prefix, i) for i in range(1, nodes + 1)]
    names = [ctl] + members + ([node_namespace(prefix, i) for i in range(1, nodes + 1)] if hosts else [])
    _ip([], "".join(f"netns add {n}\n" for n in names))
    for n in names:
        _sysctl(n, "net.ipv6.conf.all.disable_ipv6", "1")
        _sysctl(n, "net.ipv6.conf.default.disable_ipv6", "1")
    cmds = [f"link add {BRIDGE} type bridge mcast_snooping 0",
            f"link set dev {BRIDGE} mtu {CONTROL_MTU}",
            f"addr add {BRIDGE_ADDRESS}/{CONTROL_SUBNET.prefixlen} dev {BRIDGE}",
            "link set dev lo up", f"link set dev {BRIDGE} up"]
    _ip(["-n", ctl], "".join(c + "\n" for c in cmds))
    ports = []
    for i, ns in enumerate(members, 1):
        # Created in the control namespace: no device of ours ever appears in the root one.
        ports.append(f"link add b{i} mtu {CONTROL_MTU} type veth peer name {CONTROL_DEVICE} netns {ns}")
        ports.append(f"link set dev b{i} master {BRIDGE}")
        ports.append(f"link set dev b{i} up")
    _ip(["-n", ctl], "".join(c + "\n" for c in ports))
    for i, ns in enumerate(members, 1):
        cmds = [f"link set dev {CONTROL_DEVICE} mtu {CONTROL_MTU}",
                f"addr add {control_address(i)}/{CONTROL_SUBNET.prefixlen} dev {CONTROL_DEVICE}",
                "link set dev lo up", f"link set dev {CONTROL_DEVICE} up"]
        _ip(["-n", ns], "".join(c + "\n" for c in cmds))
    if hosts:
        for i in range(1, nodes + 1):
            _ip(["-n", node_namespace(prefix, i)], "link set dev lo up\n")


def move_device(from_ns: str, device: str, to_ns: str, new_name: str) -> None:
    """A host's TAP into its node's namespace, renamed (the emane process
    keeps its descriptor: frames still flow through it)."""
    _ip(["-n", from_ns], f"link set dev {device} netns {to_ns}\n")
    _ip(["-n", to_ns], f"link set dev {device} name {new_name}\n")


def interface(ns: str, device: str) -> dict | None:
    """`ip -j addr show` of one device in a namespace, or None if absent."""
    try:
        out = _ip(["-n", ns, "-j", "addr", "show", "dev", device], timeout=10)
    except NetworkError:
        return None
    try:
        entries = json.loads(out)
    except ValueError:
        return None
    return entries[0] if entries else None


def set_experiment_address(ns: str, device: str, address: str, prefixlen: int, broadcast: str,
                           mtu: int = 1500) -> None:
    """The TAP's address with the subnet's broadcast, as dissem-emu sets it."""
    _ip(["-n", ns], f"addr flush dev {device}\n"
                    f"addr add {address}/{prefixlen} broadcast {broadcast} dev {device}\n"
                    f"link set dev {device} mtu {mtu} up\n")


def pids_inside(ns: str) -> list[int]:
    try:
        out = _ip(["netns", "pids", ns], timeout=10)
    except NetworkError:
        return []
    return [int(p) for p in out.split() if p.isdigit()]


def delete(prefix: str) -> list[str]:
    """Removes every namespace of the prefix (killing what still runs
    inside); returns the names removed."""
    removed = []
    for ns in owned_namespaces(prefix):
        for pid in pids_inside(ns):
            try:
                os.kill(pid, 9)
            except OSError:
                pass
        try:
            _ip(["netns", "del", ns])
            removed.append(ns)
        except NetworkError:
            pass
    return removed
