"""The EMANE files of one run on this machine: a platform per node (one NEM,
commeffect shim over the virtual transport), the event service with its EEL
generator, and the EEL itself in EMANE's reading order.

The XML builders are emulation/runner/emane_export.py's, which writes the
same files for a testbed; here the DOCTYPEs name the DTDs of the EMANE in
use, the devices are this machine's control network's, and the shim's
receive buffer comes from the radio queue (link_mapping.py).
"""

from __future__ import annotations

import ipaddress
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from runner import eel, emane_export as ex  # noqa: E402

from . import control_network  # noqa: E402

DEVICE = "emane0"   # the virtual transport's TAP in each node namespace


def write(out: Path, dtd_dir: Path, subnet: ipaddress.IPv4Network, events: list[eel.LinkEvent],
          periods: dict[int, float], default_disconnected: bool) -> dict[int, Path]:
    """Writes every file into `out`; returns each node's platform file."""
    out.mkdir(parents=True, exist_ok=True)
    dtd = f"file://{dtd_dir}"
    files: dict[str, str] = {
        ex.TRANSPORT_FILE: ex.transport_xml(dtd),
        ex.EVENTSERVICE_FILE: ex.eventservice_xml(control_network.BRIDGE, dtd),
        ex.GENERATOR_FILE: ex.eelgenerator_xml(dtd),
        ex.EEL_FILE: eel.write(events, eel.EMANE_CONVENTION),
    }
    platforms = {}
    for node, period in sorted(periods.items()):
        shim, nem = f"commeffect-shim-{node}.xml", f"commeffect-nem-{node}.xml"
        files[shim] = ex.shim_xml(default_disconnected, dtd, receive_buffer_s=period)
        files[nem] = ex.nem_xml(dtd, shim_file=shim)
        address = str(subnet.network_address + node)
        files[f"platform-{node}.xml"] = ex.platform_xml(node, f"node-{node}", address, control_network.CONTROL_DEVICE,
                                                        dtd, nem_file=nem, device=DEVICE,
                                                        mask=str(subnet.netmask))
        platforms[node] = out / f"platform-{node}.xml"
    for name, text in files.items():
        (out / name).write_text(text)
    return platforms

