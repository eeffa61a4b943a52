"""A shared medium on EMANE: the RF Pipe radio model (`--emane-model rfpipe`).

Every NEM is a radio on one frequency: the virtual transport over the RF
Pipe MAC over EMANE's emulator PHY. A MAC sends one frame at a time at its
data rate and has no carrier sense, so frames of nodes that transmit at
once overlap at a receiver, and the PHY counts the other signals as
interference (noise mode `all`): collisions and hidden terminals come from
EMANE. Each link's reliability becomes a path loss whose signal-to-noise
ratio the RF Pipe's probability-of-reception curve turns into that
reliability, with no interference.

The model, and what a scenario's keys become on it:
- rate: a node's radio (`radio_bps[_node]`), else the shared channel
  (`shared_channel_bps`: every radio at that rate on one frequency), else
  the links' own rate, which must then be the same on every link from the
  node;
- reliability r: path loss = tx power - noise floor - SINR(r), the inverse of
  the default PCR curve (POR = 5 % per dB of SINR, 100 % from 20 dB; we
  give a perfect link 30 dB); a disabled link (100 % loss): 200 dB;
- latency and jitter: the MAC's delay and jitter, one value per node (the
  largest on the links from it);
- refused: duplicates, burst loss, the half-duplex channel, and rates that
  change over time or differ between a node's links.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import defaultdict

from . import eel
from .emane_export import _param, _xml

TX_POWER_DBM = 0.0
BANDWIDTH_HZ = 1_000_000
NOISE_FIGURE_DB = 4.0
# Thermal noise over the bandwidth, plus the receiver's noise figure.
NOISE_FLOOR_DBM = -174.0 + 60.0 + NOISE_FIGURE_DB   # 10 log10(1 MHz) = 60 dB
PERFECT_SINR_DB = 30.0
CUT_PATHLOSS_DB = 200.0
MAC_FILE = "rfpipe-mac-{node}.xml"
NEM_FILE = "rfpipe-nem-{node}.xml"


class RfpipeUnsupported(ValueError):
    """A scenario key the RF Pipe model cannot express; names the key."""


def pathloss_db(reliability: float) -> float:
    """The path loss at which the default RF Pipe PCR curve receives a
    frame with probability `reliability` (no interference)."""
    if reliability <= 0:
        return CUT_PATHLOSS_DB
    sinr = PERFECT_SINR_DB if reliability >= 1 else 20.0 * reliability
    return round(TX_POWER_DBM - NOISE_FLOOR_DBM - sinr, 3)


def node_rates(events: list[eel.LinkEvent], nodes: int, radio: dict[int, float], shared_bps: float) -> dict[int, int]:
    """Each node's MAC data rate (bit/s)."""
    out = {}
    for s in range(1, nodes + 1):
        if radio.get(s, 0) > 0:
            out[s] = int(round(radio[s]))
            continue
        if shared_bps > 0:
            out[s] = int(round(shared_bps))
            continue
        rates = {max(e.params.broadcast_bps, e.params.unicast_bps) for e in events if e.sender == s}
        rates.discard(0)
        if len(rates) > 1:
            raise RfpipeUnsupported(f"[topology] capacity_bps: node {s}'s links have rates {sorted(rates)}; an RF "
                                    "Pipe radio has one (set [emulator] radio_bps)")
        if not rates:
            raise RfpipeUnsupported(f"[topology] capacity_bps: node {s} has no rate; an RF Pipe radio needs one")
        out[s] = rates.pop()
    for e in events:
        rate = max(e.params.broadcast_bps, e.params.unicast_bps)
        if e.time_s > 0 and rate and radio.get(e.sender, 0) <= 0 and shared_bps <= 0 and rate != out[e.sender]:
            raise RfpipeUnsupported(f"[[topology.event]] capacity_bps: the rate from node {e.sender} changes at "
                                    f"{e.time_s:g} s; an RF Pipe radio's rate is fixed")
    return out


def pathloss_eel(events: list[eel.LinkEvent], nodes: int, default_disconnected: bool) -> str:
    """EEL pathloss lines: `<t> nem:A pathloss nem:B,<A to B dB>,<B to A dB>`
    (eelloaderpathloss delivers A's entry to B and B's to A). Every pair at
    time 0 (links the EEL leaves out: perfect, or cut when default
    disconnected); later, the pairs whose links change."""
    for e in events:
        if e.params.dup_pct > 0:
            raise RfpipeUnsupported("[topology] dup_pct: the RF Pipe model does not duplicate frames")
    unlisted = CUT_PATHLOSS_DB if default_disconnected else pathloss_db(1.0)
    by_time: dict[float, dict[tuple[int, int], eel.LinkParams]] = defaultdict(dict)
    for e in events:
        by_time[e.time_s][(e.sender, e.receiver)] = e.params
    state: dict[tuple[int, int], float] = {}
    out = []
    for t in sorted(set(by_time) | {0.0}):
        for (s, r), p in by_time[t].items():
            state[(s, r)] = pathloss_db(0.0 if p.disabled else 1.0 - p.loss_pct / 100.0)
        pairs = ([(a, b) for a in range(1, nodes + 1) for b in range(a + 1, nodes + 1)] if t == 0
                 else sorted({(min(k), max(k)) for k in by_time[t]}))
        per_lead: dict[int, list[str]] = defaultdict(list)
        for a, b in pairs:
            ab, ba = state.get((a, b), unlisted), state.get((b, a), unlisted)
            per_lead[a].append(f"nem:{b},{eel.number(ab)},{eel.number(ba)}")
        out += [f"{eel.number(t)} nem:{lead} pathloss " + " ".join(per_lead[lead]) for lead in sorted(per_lead)]
    return "\n".join(out) + "\n"


def delays(events: list[eel.LinkEvent], nodes: int) -> dict[int, tuple[float, float]]:
    """Per node, the MAC's (delay, jitter) in seconds: the largest on its links."""
    out = {}
    for s in range(1, nodes + 1):
        mine = [e.params for e in events if e.sender == s]
        out[s] = (max((p.latency_s for p in mine), default=0.0), max((p.jitter_s for p in mine), default=0.0))
    return out


def mac_xml(datarate_bps: int, delay_s: float, jitter_s: float, pcr_uri: str, dtd: str) -> str:
    root = ET.Element("mac", name="RF Pipe MAC", library="rfpipemaclayer")
    _param(root, "enablepromiscuousmode", "off")
    _param(root, "datarate", datarate_bps)
    _param(root, "delay", f"{delay_s:.6f}")
    _param(root, "jitter", f"{jitter_s:.6f}")
    _param(root, "flowcontrolenable", "off")
    _param(root, "pcrcurveuri", pcr_uri)
    return _xml(root, "mac.dtd", dtd)


def nem_xml(mac_file: str, transport_file: str, dtd: str) -> str:
    root = ET.Element("nem", name="dissem RF Pipe NEM")
    ET.SubElement(root, "transport", definition=transport_file)
    ET.SubElement(root, "mac", definition=mac_file)
    phy = ET.SubElement(root, "phy")
    for name, value in (("fixedantennagain", "0.0"), ("fixedantennagainenable", "on"),
                        ("bandwidth", BANDWIDTH_HZ), ("noisemode", "all"),
                        ("propagationmodel", "precomputed"), ("systemnoisefigure", NOISE_FIGURE_DB),
                        ("subid", 2), ("txpower", TX_POWER_DBM)):
        _param(phy, name, value)
    return _xml(root, "nem.dtd", dtd)
