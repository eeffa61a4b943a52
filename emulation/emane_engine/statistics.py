"""EMANE's own counts of what went over the air, in dissem-emu's stats shape.

Each node's emane answers on its control port (inside the node's
namespace); control_port_reader.py reads every statistic of its NEM. The
comm effect shim sits between the virtual transport and the over-the-air
channel, so its common layer counters say:
- downstream, received from the transport: the frames the node sent
  (`frames_sent`, `bytes_sent`: whole Ethernet frames, as dissem-emu counts);
- upstream, received over the air: what reached the node's receiver
  (`offered` on the links into it), passed up (`delivered`), or dropped
  (loss draws, receive-buffer drops, no profile: `lost`).
Every raw statistic is kept under each node's "emane" key.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from .installation import Emane

READER = Path(__file__).resolve().parent / "control_port_reader.py"
READ_TIMEOUT_S = 20.0


def _sum(layer: dict, *names: str) -> int:
    return sum(int(layer.get(n, 0) or 0) for n in names)


def read_node(emane: Emane, ns: str) -> dict:
    argv = ["ip", "netns", "exec", ns, emane.emanesh[0], str(READER)]
    out = subprocess.run(argv, capture_output=True, text=True, timeout=READ_TIMEOUT_S, env=emane.env())
    if out.returncode != 0:
        raise RuntimeError(f"{ns}: control port read failed: {out.stderr.strip()[-300:]}")
    return json.loads(out.stdout)


def node_counters(node_id: int, nems: dict) -> dict:
    layers = nems.get(str(node_id), {})
    # The comm effect shim's counters, or the RF Pipe MAC's (the same common layer counters).
    shim = layers.get("shim0") or layers.get("mac", {})
    sent_frames = _sum(shim, "numDownstreamPacketsUnicastRx0", "numDownstreamPacketsBroadcastRx0")
    sent_bytes = _sum(shim, "numDownstreamBytesUnicastRx0", "numDownstreamBytesBroadcastRx0")
    offered = _sum(shim, "numUpstreamPacketsUnicastRx0", "numUpstreamPacketsBroadcastRx0")
    delivered = _sum(shim, "numUpstreamPacketsUnicastTx0", "numUpstreamPacketsBroadcastTx0")
    dropped = _sum(shim, "numUpstreamPacketsUnicastDrop0", "numUpstreamPacketsBroadcastDrop0")
    return {"id": node_id, "frames_sent": sent_frames, "bytes_sent": sent_bytes,
            "broadcast_sent": _sum(shim, "numDownstreamPacketsBroadcastRx0"),
            "unicast_sent": _sum(shim, "numDownstreamPacketsUnicastRx0"),
            "frames_received": delivered,
            "bytes_received": _sum(shim, "numUpstreamBytesUnicastTx0", "numUpstreamBytesBroadcastTx0"),
            "offered_to": offered, "dropped_to": dropped, "emane": layers}


def summarise(per_node: list[dict]) -> dict:
    keys = ("frames_sent", "bytes_sent", "broadcast_sent", "unicast_sent", "frames_received", "bytes_received")
    totals = {k: sum(n[k] for n in per_node) for k in keys}
    links = {"offered": sum(n["offered_to"] for n in per_node),
             "delivered": sum(n["frames_received"] for n in per_node),
             "lost": sum(n["dropped_to"] for n in per_node)}
    return {"nodes": per_node, "totals": {"nodes": totals, "links": links}}


def collect(emane: Emane, namespaces: list[str], nodes: int) -> dict:
    """Every NEM's counters, from the emane process in each of `namespaces`
    (a node's own, or a host's holding several NEMs)."""
    nems: dict = {}
    for ns in namespaces:
        nems.update(read_node(emane, ns))
    return summarise([node_counters(i, nems) for i in range(1, nodes + 1)])
