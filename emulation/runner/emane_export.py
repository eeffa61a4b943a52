"""--export-emane: the same scenario (one cell, one seed) as EMANE files
for a real testbed, one host (or container) per node.

Element and attribute names follow EMANE's DTDs (platform.dtd, nem.dtd,
shim.dtd, transport.dtd, eventservice.dtd, eventgenerator.dtd): a platform
per node with one NEM (type "unstructured": a commeffect shim over a
virtual transport, no MAC/PHY), and an event service whose EEL generator
replays scenario.eel through eelloadercommeffect.

scenario.eel here is written in EMANE's own reading order (sender first,
see eel.py), unlike the dissem-emu copy in each run directory.
"""

from __future__ import annotations

import ipaddress
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from . import eel, facts, topology
from .matrix import Cell
from .scenario import Scenario

DTD_DIR = "file:///usr/share/emane/dtd"
NEM_FILE = "emane-commeffect-nem.xml"
SHIM_FILE = "emane-commeffect-shim.xml"
TRANSPORT_FILE = "emane-transvirtual.xml"
EVENTSERVICE_FILE = "eventservice.xml"
GENERATOR_FILE = "eelgenerator.xml"
EEL_FILE = "scenario.eel"
OTA_GROUP = "224.1.2.8:45702"
EVENT_GROUP = "224.1.2.8:45703"
CONTROL_PORT = "0.0.0.0:47000"
EMANE_SUBNET = ipaddress.IPv4Network("10.100.0.0/24")
EMANE_DEVICE = "emane0"


def _param(parent: ET.Element, name: str, value) -> None:
    ET.SubElement(parent, "param", name=name, value=str(value))


def _xml(root: ET.Element, doctype: str, dtd_dir: str) -> str:
    ET.indent(root, space="  ")
    body = ET.tostring(root, encoding="unicode")
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<!DOCTYPE {root.tag} SYSTEM "{dtd_dir}/{doctype}">\n{body}\n')


@dataclass(frozen=True)
class NemEntry:
    """One NEM of a platform: its id, name, NEM file, and its virtual
    transport's TAP (device name, address, mask)."""
    id: int
    name: str
    address: str
    nem_file: str = NEM_FILE
    device: str = EMANE_DEVICE
    mask: str = str(EMANE_SUBNET.netmask)


def share_nodes(nodes: int, hosts: int) -> dict[int, list[int]]:
    """EMANE's distributed mode: host k's nodes (NEM ids), in contiguous
    blocks as even as they divide."""
    return {k: list(range(1 + (k - 1) * nodes // hosts, 1 + k * nodes // hosts)) for k in range(1, hosts + 1)}


def platform_nems_xml(nems: list[NemEntry], control_if: str, dtd_dir: str = DTD_DIR) -> str:
    """A platform (one emane process) holding `nems`: one per node on a
    testbed of one host per node, several per host in EMANE's distributed
    mode. EMANE validates each file against the DTD its DOCTYPE names: an
    install under another prefix gives its own dtd_dir."""
    root = ET.Element("platform")
    for name, value in (("otamanagerchannelenable", "on"), ("otamanagerdevice", control_if),
                        ("otamanagergroup", OTA_GROUP), ("eventservicegroup", EVENT_GROUP),
                        ("eventservicedevice", control_if), ("controlportendpoint", CONTROL_PORT)):
        _param(root, name, value)
    for n in nems:
        nem = ET.SubElement(root, "nem", id=str(n.id), name=n.name, definition=n.nem_file)
        transport = ET.SubElement(nem, "transport", definition=TRANSPORT_FILE)
        _param(transport, "device", n.device)
        _param(transport, "address", n.address)
        _param(transport, "mask", n.mask)
    return _xml(root, "platform.dtd", dtd_dir)


def platform_xml(node_id: int, node_name: str, address: str, control_if: str, dtd_dir: str = DTD_DIR) -> str:
    return platform_nems_xml([NemEntry(node_id, node_name, address)], control_if, dtd_dir)


def nem_xml(dtd_dir: str = DTD_DIR, shim_file: str = SHIM_FILE) -> str:
    # Layers top to bottom (nemcontents.dtd): the transport, then the shim
    # below it, between the transport and the air. A shim listed before the
    # transport sits above it and sees no packet (found running EMANE 1.5.3:
    # the shim's counters stayed 0 while the transports' counted every frame).
    root = ET.Element("nem", name="dissem commeffect NEM", type="unstructured")
    ET.SubElement(root, "transport", definition=TRANSPORT_FILE)
    ET.SubElement(root, "shim", definition=shim_file)
    return _xml(root, "nem.dtd", dtd_dir)


def shim_xml(default_disconnected: bool, dtd_dir: str = DTD_DIR, receive_buffer_s: float | None = None) -> str:
    root = ET.Element("shim", name="dissem commeffect shim", library="commeffectshim")
    _param(root, "defaultconnectivitymode", "off" if default_disconnected else "on")
    _param(root, "enablepromiscuousmode", "off")
    if receive_buffer_s is not None:
        # Drops a packet whose wait behind its source's earlier ones exceeds
        # this: the drop-tail queue of dissem-emu's radio, in seconds (0: no limit).
        _param(root, "receivebufferperiod", f"{receive_buffer_s:.6f}")
    return _xml(root, "shim.dtd", dtd_dir)


def transport_xml(dtd_dir: str = DTD_DIR) -> str:
    root = ET.Element("transport", name="Virtual Transport", library="transvirtual")
    return _xml(root, "transport.dtd", dtd_dir)


def eventservice_xml(control_if: str, dtd_dir: str = DTD_DIR) -> str:
    root = ET.Element("eventservice")
    _param(root, "eventservicegroup", EVENT_GROUP)
    _param(root, "eventservicedevice", control_if)
    ET.SubElement(root, "generator", definition=GENERATOR_FILE)
    return _xml(root, "eventservice.dtd", dtd_dir)


COMMEFFECT_LOADER = "commeffect:eelloadercommeffect:delta"
PATHLOSS_LOADER = "pathloss:eelloaderpathloss:delta"


def eelgenerator_xml(dtd_dir: str = DTD_DIR, loader: str = COMMEFFECT_LOADER) -> str:
    root = ET.Element("eventgenerator", name="EEL generator", library="eelgenerator")
    _param(root, "inputfile", EEL_FILE)
    loaders = ET.SubElement(root, "paramlist", name="loader")
    ET.SubElement(loaders, "item", value=loader)
    return _xml(root, "eventgenerator.dtd", dtd_dir)


def _node_commands(sc: Scenario, cell: Cell, seed: int) -> dict[str, list[tuple[str, list[str]]]]:
    """Per system, per node: the commands rendered for the testbed."""
    cell_names = facts.cell_facts(sc, cell, seed)
    limit = float(sc.time_limit_s.resolve(cell_names))
    hosts = list(EMANE_SUBNET.hosts())
    addresses = {n.id: str(hosts[n.id - 1]) for n in sc.nodes.nodes}
    base = Path("/var/tmp/dissem") / sc.name
    out: dict[str, list[tuple[str, list[str]]]] = {}
    for system_name, system in sc.systems.items():
        run_names = facts.run_facts(sc, cell_names, system_name, "emane", EMANE_SUBNET, base / system_name,
                                    limit, addresses)
        rows = []
        for node in sc.nodes.nodes:
            emu_node = {"address": addresses[node.id], "namespace": "", "interface": EMANE_DEVICE, "mac": ""}
            workdir = base / system_name / node.name
            names = facts.node_facts(run_names, node, emu_node, workdir, sockdir=workdir)
            lines = []
            for role, spec in system.roles.items():
                if node.id not in sc.nodes.roles[role]:
                    continue
                if spec.daemon:
                    lines.append(f"[{role}] daemon (background): `{spec.daemon.text(names)}`")
                if spec.ready_probe:
                    lines.append(f"[{role}] wait until this succeeds: `{spec.ready_probe.text(names)}`")
                if spec.command:
                    delay = float(spec.start_delay_s.resolve(names))
                    how = "run, wait for it to exit" if spec.wait else "run in the background"
                    lines.append(f"[{role}] after {delay:g} s, {how}: `{spec.command.text(names)}`")
                if spec.collect:
                    lines.append(f"[{role}] when the waited commands are done, before stopping the daemons: "
                                 f"`{spec.collect.text(names)}`")
            rows.append((f"{node.id} {node.name} ({addresses[node.id]})", lines))
        out[system_name] = rows
    return out


def readme(sc: Scenario, cell: Cell, seed: int, expansion: topology.Expansion, control_if: str,
           hosts: dict[int, list[int]] | None = None, events: int = 0) -> str:
    n = len(sc.nodes)
    params = ", ".join(f"{k} = {v}" for k, v in cell.params.items()) or "no matrix"
    spec = sc.emulator
    names = facts.cell_facts(sc, cell, seed)
    refused = [k for k, on in (("shared_channel_bps", spec.shared_channel_bps is not None
                                and float(spec.shared_channel_bps.resolve(names)) > 0),
                               ("gilbert", spec.gilbert is not None),
                               ("topology gilbert (per-link burst loss)", bool(expansion.gilbert)),
                               ("half_duplex_bps", spec.half_duplex_bps is not None),
                               ("turnaround_ms", spec.turnaround_ms is not None),
                               ("max_hold_ms", spec.max_hold_ms is not None)) if on]
    if hosts:
        platforms = (f"- `platform-host-<k>.xml` (k = 1..{len(hosts)}): one EMANE platform per host, holding "
                     "that host's NEMs (" + "; ".join(f"host {k}: NEMs {', '.join(map(str, v))}"
                                                     for k, v in hosts.items()) +
                     "); NEM i's virtual transport creates TAP `emane<i>` with address 10.100.0.i/24.")
        start = ("2. On host k: `emane platform-host-<k>.xml -r -d -l 3 -f /var/log/emane.log` (creates one "
                 "TAP `emane<i>` per NEM i it holds; node i's applications use `emane<i>`).")
    else:
        platforms = (f"- `platform-<i>.xml` (i = 1..{n}): one EMANE platform per node, one NEM with id i; "
                     f"its virtual transport creates TAP `{EMANE_DEVICE}` with address 10.100.0.i/24.")
        start = ("2. On host i: `emane platform-<i>.xml -r -d -l 3 -f /var/log/emane.log` "
                 f"(creates `{EMANE_DEVICE}`; check with `ip addr show {EMANE_DEVICE}`).")
    text = [f"# EMANE files for scenario `{sc.name}`, cell `{cell.id}`, seed {seed}", "",
            f"{sc.description.strip()}" if sc.description.strip() else "", "",
            f"Cell parameters: {params}. Generated by `emulation/run --export-emane`; `emulation/run --engine "
            "emane` runs the same files on one machine (docs/emane.md).", "",
            "## Files", "",
            platforms + f" OTA and events use the control interface `{control_if}` (multicast {OTA_GROUP} and "
            f"{EVENT_GROUP}).",
            "- `commeffect-nem-<i>.xml`: NEM i, the virtual transport over its commeffect shim "
            "(type `unstructured`).",
            "- `commeffect-shim-<i>.xml`: NEM i's commeffect shim; `defaultconnectivitymode` is "
            f"`{'off' if expansion.default_disconnected else 'on'}` "
            f"({'links absent from the EEL are down' if expansion.default_disconnected else 'every link is listed'}); "
            "`receivebufferperiod` is the scenario's radio queue in full-size frames at the slowest rate into "
            "the node.",
            f"- `{TRANSPORT_FILE}`: virtual (TAP) transport.",
            f"- `{EVENTSERVICE_FILE}`, `{GENERATOR_FILE}`: the event service replaying `{EEL_FILE}` with "
            "`eelloadercommeffect`.",
            f"- `{EEL_FILE}`: the links, {events} commeffect entries, each node's radio rate folded into the "
            "links from it (the shim serialises a source's packets at each receiver). EMANE reads "
            "`<t> nem:X commeffect nem:Y,...` as *packets from X received by Y* (the loader delivers the event "
            "to Y with X as source), so this file is sender-first, as is the dissem-emu copy in each run "
            "directory.",
            "",
            "## Running it", "",
            f"1. Give each host (or container) a control interface `{control_if}` on one LAN with "
            "multicast, synchronise the hosts' clocks (PTP or NTP: EMANE timestamps frames), install EMANE, "
            "and copy this directory to each.",
            start,
            "3. When every platform is up, on one host (any, or a control host on the same LAN): "
            f"`emaneeventservice {EVENTSERVICE_FILE} -r -d -l 3 -f /var/log/emaneeventservice.log`. "
            "EEL times count from the event service's start: start it right before the applications so that "
            "timed changes (partitions, outages) happen when the scenario expects them.",
            "4. Start the node commands below (daemons first, then wait for the readiness check, then the "
            "role commands after their delays). Each command's last JSON line on stdout is its result, as in "
            "the emulator runs.",
            "5. Stop: the applications, then `emaneeventservice` and `emane` (SIGTERM).",
            "",
            "The runner sets `{workdir}` (and `{sockdir}`) to per-node directories; here both are rendered "
            "as `/var/tmp/dissem/<scenario>/<system>/<node>`: create it first.", ""]
    if refused:
        text += ["Not carried over (no commeffect equivalent; `--engine emane` refuses them): "
                 + ", ".join(f"`{u}`" for u in refused) + ". The commeffect shim applies loss, latency, "
                 "jitter, duplication and a per-source receive bit rate only.", ""]
    if spec.half_duplex_bps is not None:
        text += ["The half-duplex (simplex, HF) channel has no commeffect equivalent: the links in "
                 f"`{EEL_FILE}` carry no rate of their own, so on EMANE they would run unlimited. Give the "
                 "links the channel's rate by hand (full duplex, no turnaround) or use a radio model with a "
                 "half-duplex channel (e.g. EMANE's TDMA model with one slot per node).", ""]
    if expansion.outages:
        count = sum(len(v) for v in expansion.outages.values())
        text += [f"Random outages (`[[topology.outage]]`, drawn for seed {seed}): {count} down periods over "
                 f"{len(expansion.outages)} directed links, written into `{EEL_FILE}` as 100 % loss events, so "
                 "EMANE replays the same outages.", ""]
    late = {n.name: float(p.resolve(facts.cell_facts(sc, cell, seed))) for n in sc.nodes.nodes
            for nid, p in sc.node_start_delay.items() if nid == n.id}
    if late:
        text += ["Late nodes: start these nodes' daemons the given seconds after the others are ready, and "
                 "their role commands that much later: " + ", ".join(f"{k} +{v:g} s" for k, v in late.items())
                 + ".", ""]
    for system, rows in _node_commands(sc, cell, seed).items():
        text += [f"## System `{system}`", ""]
        desc = sc.systems[system].description.strip()
        if desc:
            text += [desc, ""]
        for node, lines in rows:
            text.append(f"- node {node}:")
            text += [f"  - {line}" for line in lines] or ["  - (nothing to run)"]
        text.append("")
    out = "\n".join(text)
    while "\n\n\n" in out:
        out = out.replace("\n\n\n", "\n\n")
    return out


def export(sc: Scenario, cell: Cell, seed: int, out_dir: Path, control_if: str = "eth0",
           hosts: int = 0) -> list[Path]:
    """The files of one cell and seed for a testbed: one platform per node,
    or with `hosts` > 0 one per host holding its share of the NEMs."""
    from . import emane_files, emane_links   # they build on this module's XML writers
    from .engines import _why
    from .errors import UserError
    if len(sc.networks) > 1:
        raise UserError(f"--export-emane: {sc.path.name}: [networks]: cannot be exported ({_why('[networks]')})")
    cell_names = facts.cell_facts(sc, cell, seed)
    limit = float(sc.time_limit_s.resolve(cell_names))
    expansion = topology.expand(sc, cell_names, horizon_s=limit)
    spec = sc.emulator
    opts = emane_links.LinkOptions(
        nodes=len(sc.nodes),
        queue_packets=int(spec.queue_packets.resolve(cell_names)) if spec.queue_packets is not None
        else emane_links.DEFAULT_QUEUE_PACKETS,
        radio_bps=float(spec.radio_bps.resolve(cell_names)) if spec.radio_bps is not None else 0.0,
        radio_bps_node={i: float(p.resolve(cell_names)) for i, p in spec.radio_bps_node.items()},
        default_disconnected=expansion.default_disconnected)
    events = emane_links.emane_events(expansion.events, opts)
    periods = emane_links.receive_buffer_periods(events, opts)
    host_map = share_nodes(len(sc.nodes), hosts) if hosts else None
    out_dir.mkdir(parents=True, exist_ok=True)
    emane_files.write(out_dir, DTD_DIR, EMANE_SUBNET, events, periods, expansion.default_disconnected, host_map,
                      control_if, control_if)
    (out_dir / "README.md").write_text(readme(sc, cell, seed, expansion, control_if, host_map, len(events)))
    return sorted(p for p in out_dir.iterdir() if p.is_file())
