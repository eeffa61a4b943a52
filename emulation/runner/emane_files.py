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

from . import eel, emane_export as ex, emane_rfpipe as rfpipe

DEVICE = "emane0"   # the virtual transport's TAP in each node namespace


def staging_device(node: int) -> str:
    """The TAP a host's emane makes for `node` before it moves into the node's namespace."""
    return f"emane{node}"


def _dtd(dtd_dir: Path | str) -> str:
    return str(dtd_dir) if str(dtd_dir).startswith("file://") else f"file://{dtd_dir}"


def _write_run(out: Path, dtd: str, subnet: ipaddress.IPv4Network, files: dict[str, str], nem_files: dict[int, str],
               hosts: dict[int, list[int]] | None, control_if: str) -> dict[int, Path]:
    """The platforms over `nem_files` (node -> its NEM file), then every file."""
    entries = {node: ex.NemEntry(node, f"node-{node}", str(subnet.network_address + node), nem_file=nem,
                                 device=DEVICE if hosts is None else staging_device(node), mask=str(subnet.netmask))
               for node, nem in sorted(nem_files.items())}
    groups = hosts if hosts is not None else {node: [node] for node in entries}
    stem = "platform-host" if hosts is not None else "platform"
    platforms = {}
    for key, nodes in sorted(groups.items()):
        files[f"{stem}-{key}.xml"] = ex.platform_nems_xml([entries[n] for n in nodes], control_if, dtd)
        platforms[key] = out / f"{stem}-{key}.xml"
    out.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (out / name).write_text(text)
    return platforms


def _events(dtd: str, eventservice_if: str, eel_text: str, loader: str) -> dict[str, str]:
    return {ex.TRANSPORT_FILE: ex.transport_xml(dtd), ex.EVENTSERVICE_FILE: ex.eventservice_xml(eventservice_if, dtd),
            ex.GENERATOR_FILE: ex.eelgenerator_xml(dtd, loader), ex.EEL_FILE: eel_text}


def write(out: Path, dtd_dir: Path | str, subnet: ipaddress.IPv4Network, events: list[eel.LinkEvent],
          periods: dict[int, float], default_disconnected: bool,
          hosts: dict[int, list[int]] | None = None, control_if: str = "ctl0",
          eventservice_if: str = "ctlbr") -> dict[int, Path]:
    """The comm effect shim's files into `out`. Without `hosts`, one platform
    per node (its TAP is emane0 in the node's own namespace); returns node
    -> file. With `hosts` (host -> its nodes), one platform per host holding
    its nodes' NEMs, TAP emane<i> for node i; returns host -> file."""
    dtd = _dtd(dtd_dir)
    files = _events(dtd, eventservice_if, eel.write(events, eel.EMANE_CONVENTION), ex.COMMEFFECT_LOADER)
    nem_files = {}
    for node, period in sorted(periods.items()):
        shim, nem = f"commeffect-shim-{node}.xml", f"commeffect-nem-{node}.xml"
        files[shim] = ex.shim_xml(default_disconnected, dtd, receive_buffer_s=period)
        files[nem] = ex.nem_xml(dtd, shim_file=shim)
        nem_files[node] = nem
    return _write_run(out, dtd, subnet, files, nem_files, hosts, control_if)


def write_rfpipe(out: Path, dtd_dir: Path | str, subnet: ipaddress.IPv4Network, events: list[eel.LinkEvent],
                 nodes: int, rates: dict[int, int], default_disconnected: bool, pcr_uri: str,
                 hosts: dict[int, list[int]] | None = None, control_if: str = "ctl0",
                 eventservice_if: str = "ctlbr") -> dict[int, Path]:
    """The RF Pipe model's files (emane_rfpipe.py): a radio per NEM at its
    rate, path losses that give each link its reliability."""
    dtd = _dtd(dtd_dir)
    files = _events(dtd, eventservice_if, rfpipe.pathloss_eel(events, nodes, default_disconnected),
                    ex.PATHLOSS_LOADER)
    nem_files = {}
    for node, (delay, jitter) in sorted(rfpipe.delays(events, nodes).items()):
        mac, nem = rfpipe.MAC_FILE.format(node=node), rfpipe.NEM_FILE.format(node=node)
        files[mac] = rfpipe.mac_xml(rates[node], delay, jitter, pcr_uri, dtd)
        files[nem] = rfpipe.nem_xml(mac, ex.TRANSPORT_FILE, dtd)
        nem_files[node] = nem
    return _write_run(out, dtd, subnet, files, nem_files, hosts, control_if)
