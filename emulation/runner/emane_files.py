"""The EMANE files of one run: a platform per node (one NEM, commeffect shim
under the virtual transport) or per host (several NEMs), the event service
with its EEL generator, and the EEL itself in EMANE's reading order, links
mapped by emane_links.py (the radio folded in, the shim's receive buffer
from the radio queue). The EMANE engine writes them for this machine (its
DTDs, its control network); --export-emane for a testbed (emane_export.py).
"""

from __future__ import annotations

import ipaddress
from pathlib import Path

from . import eel, emane_export as ex

DEVICE = "emane0"   # the virtual transport's TAP in each node namespace


def staging_device(node: int) -> str:
    """The TAP a host's emane makes for `node` before it moves into the node's namespace."""
    return f"emane{node}"


def write(out: Path, dtd_dir: Path | str, subnet: ipaddress.IPv4Network, events: list[eel.LinkEvent],
          periods: dict[int, float], default_disconnected: bool,
          hosts: dict[int, list[int]] | None = None, control_if: str = "ctl0",
          eventservice_if: str = "ctlbr") -> dict[int, Path]:
    """Writes every file into `out`. Without `hosts`, one platform per node
    (its TAP is emane0 in the node's own namespace); returns node -> file.
    With `hosts` (host -> its nodes), one platform per host holding its
    nodes' NEMs, TAP emane<i> for node i; returns host -> file."""
    out.mkdir(parents=True, exist_ok=True)
    dtd = str(dtd_dir) if str(dtd_dir).startswith("file://") else f"file://{dtd_dir}"
    files: dict[str, str] = {
        ex.TRANSPORT_FILE: ex.transport_xml(dtd),
        ex.EVENTSERVICE_FILE: ex.eventservice_xml(eventservice_if, dtd),
        ex.GENERATOR_FILE: ex.eelgenerator_xml(dtd),
        ex.EEL_FILE: eel.write(events, eel.EMANE_CONVENTION),
    }
    entries = {}
    for node, period in sorted(periods.items()):
        shim, nem = f"commeffect-shim-{node}.xml", f"commeffect-nem-{node}.xml"
        files[shim] = ex.shim_xml(default_disconnected, dtd, receive_buffer_s=period)
        files[nem] = ex.nem_xml(dtd, shim_file=shim)
        device = DEVICE if hosts is None else staging_device(node)
        entries[node] = ex.NemEntry(node, f"node-{node}", str(subnet.network_address + node), nem_file=nem,
                                    device=device, mask=str(subnet.netmask))
    groups = hosts if hosts is not None else {node: [node] for node in entries}
    stem = "platform-host" if hosts is not None else "platform"
    platforms = {}
    for key, nodes in sorted(groups.items()):
        files[f"{stem}-{key}.xml"] = ex.platform_nems_xml([entries[n] for n in nodes], control_if, dtd)
        platforms[key] = out / f"{stem}-{key}.xml"
    for name, text in files.items():
        (out / name).write_text(text)
    return platforms
