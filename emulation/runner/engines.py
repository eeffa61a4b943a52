"""The emulation engines a scenario runs on, and how each realises its keys.

`emulation/run --engine NAME` picks one:

- `dissem-emu`: our one-machine emulator (emulation/emu), every key.
- `emane`: EMANE 1.5 (emulation/dissem-emane: one emane per node namespace,
  NEMs with the comm effect shim over the virtual transport, an event
  service playing the scenario's EEL). The paper's model (MANE semantics)
  maps to it; keys that need a shared medium, turns, or burst loss do not,
  and are refused by name before any run starts.

KEYS is the one table of what each key becomes on each engine: the
runner's refusals read it, emulation/README.md prints it, and a test holds
it to the keys scenario.py and topology.py accept.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from . import facts, topology
from .errors import UserError
from .matrix import Cell
from .scenario import Scenario

ENGINES = ("dissem-emu", "emane")
DEFAULT_ENGINE = "dissem-emu"
EMANE_PROGRAM = Path(__file__).resolve().parent.parent / "dissem-emane"


@dataclass(frozen=True)
class Key:
    name: str                 # as a scenario writes it
    emu: str                  # how dissem-emu realises it
    emane: str                # how EMANE's comm effect shim realises it; "" = refused
    refusal: str = ""         # why the comm effect shim cannot (when emane == "")
    rfpipe: str = ""          # how EMANE's RF Pipe model (--emane-model rfpipe) realises it; "" = refused
    rfpipe_refusal: str = ""


_COMMEFFECT = "a comm effect entry per (transmitter, receiver) in the EEL the event service plays"
_PATHLOSS = "path losses in the EEL the event service plays"
_NO_BURSTS = "each packet's loss is drawn on its own: no burst loss"
KEYS: tuple[Key, ...] = (
    Key("[topology] kind, and the links it makes (full, line, grid, partition-heal, geometric)",
        "EEL commeffect entries", _COMMEFFECT, rfpipe=_PATHLOSS + " (a missing link: 200 dB)"),
    Key("[topology] eel / eel_file / eel_convention", "the EEL as written", "the same EEL, in EMANE's reading order",
        rfpipe="the EEL's links as path losses"),
    Key("[topology] capacity_bps", "each link's drop-tail serialisation", "the entry's unicast and broadcast "
        "bit rates (the shim serialises each source's packets at the receiver)",
        rfpipe="the sender's radio rate when it has no radio_bps: one rate on all its links, fixed in time",
        rfpipe_refusal="rates that differ between a node's links or change in time"),
    Key("[topology] reliability", "independent loss per link and packet", "the entry's loss percentage",
        rfpipe="a path loss whose SINR the RF Pipe PCR curve receives with that probability (no interference)"),
    Key("[topology] latency_ms, jitter_ms", "delay + U[0, jitter]", "the entry's latency and jitter",
        rfpipe="the sending MAC's delay and jitter: the largest on its links"),
    Key("[topology] dup_pct", "duplicates", "the entry's duplicate percentage", rfpipe="",
        rfpipe_refusal="an RF Pipe radio does not duplicate frames"),
    Key("[topology] default_disconnected", "--default-disconnected", "shim defaultconnectivitymode off",
        rfpipe="unlisted links at 200 dB"),
    Key("[[topology.override]] (without gilbert)", "EEL entries at t = 0", "EEL entries at t = 0",
        rfpipe="path losses at t = 0"),
    Key("[[topology.override]] reliability_range", "each matched link's own loss, drawn per seed (dissem-sim expand)",
        "the same entries", rfpipe="the same draws as path losses"),
    Key("[[topology.event]]", "timed EEL entries", "timed EEL entries (from the event service's start)",
        rfpipe="timed path losses (rates fixed)"),
    Key("[[topology.outage]]", "timed 100 % loss entries, drawn per seed", "the same entries",
        rfpipe="timed 200 dB path losses"),
    Key("[topology] partition_at_s, heal_at_s", "timed 100 % loss entries", "the same entries",
        rfpipe="timed 200 dB path losses"),
    Key("[topology] gilbert, [[topology.override]] gilbert", "per-link Gilbert-Elliott chain", "", _NO_BURSTS,
        "", _NO_BURSTS),
    Key("[emulator] radio_bps, radio_bps_node", "a radio stage serialising all a node sends",
        "folded into each link from the node: min(radio, link) rate, lost packets taking their time as on a radio",
        rfpipe="the node's RF Pipe data rate"),
    Key("[emulator] queue_packets", "drop-tail queues of that many frames",
        "shim receivebufferperiod: that many full-size frames at the slowest rate into the node",
        rfpipe="not set: RF Pipe's own downstream queue (drop-head, of EMANE's fixed size)"),
    Key("[emulator] shared_channel_bps (> 0)", "one channel all nodes take turns on", "",
        "a shared medium needs a radio model (--emane-model rfpipe), not the comm effect shim",
        rfpipe="every radio at that rate on one frequency, with no carrier sense: overlapping frames collide"),
    Key("[emulator] half_duplex_bps, turnaround_ms, max_hold_ms", "a half-duplex channel with turns", "",
        "a half-duplex channel needs a radio model with turns (TDMA)", "",
        "RF Pipe has no turns; a half-duplex channel needs TDMA"),
    Key("[emulator] gilbert", "Gilbert-Elliott burst loss on every link", "", _NO_BURSTS, "", _NO_BURSTS),
    Key("[emulator] pcap", "the emulator's own per-node captures", "dumpcap on each node's emane0",
        rfpipe="dumpcap on each node's emane0"),
    Key("[emulator] ready_timeout_s, stop_timeout_s, duration_margin_s", "runner-side", "runner-side, the same",
        rfpipe="runner-side, the same"),
    Key("[emulator] extra_args", "extra dissem-emu options", "",
        "they are dissem-emu's options; dissem-emane takes none of them", "",
        "they are dissem-emu's options; dissem-emane takes none of them"),
    Key("[nodes] start delays (late starts)", "runner-side", "runner-side, the same", rfpipe="runner-side, the same"),
    Key("[networks] (several networks; a node on two is a gateway)",
        "one dissem-emu per network, each with its own [networks.NAME.emulator]; a node on two networks has a "
        "TAP on each (--join)", "", "dissem-emane runs one NEM per node: a node on two networks needs two NEMs "
        "in one namespace", "", "dissem-emane runs one NEM per node: a node on two networks needs two NEMs in "
        "one namespace"),
)
MODELS = ("commeffect", "rfpipe")


def _why(name: str, model: str = "commeffect") -> str:
    """The refusal of the KEYS row whose name starts with `name`."""
    key = next(k for k in KEYS if k.name.startswith(name))
    return key.rfpipe_refusal if model == "rfpipe" else key.refusal


def refusals(sc: Scenario, cells: list[Cell], seeds: list[int], engine: str, model: str = "commeffect") -> list[str]:
    """Every key of `sc` that `engine` (with EMANE, its `model`) cannot run,
    in any of the cells, each with its reason (empty: everything maps)."""
    if engine == "dissem-emu":
        return []
    out: list[str] = []
    what = "EMANE's comm effect shim" if model == "commeffect" else "EMANE's RF Pipe model"

    def refuse(key: str, why: str) -> None:
        line = f"{sc.path.name}: {key}: cannot run on {what} ({why})"
        if line not in out:
            out.append(line)

    if len(sc.networks) > 1:
        refuse("[networks]", _why("[networks]", model))
    spec = sc.emulator
    checks: list[tuple[str, Callable[[dict[str, Any]], bool]]] = [
        ("[emulator] half_duplex_bps", lambda n: spec.half_duplex_bps is not None),
        ("[emulator] gilbert", lambda n: spec.gilbert is not None),
        ("[emulator] extra_args", lambda n: bool(spec.extra_args)),
    ]
    if model == "commeffect":
        checks.append(("[emulator] shared_channel_bps", lambda n: spec.shared_channel_bps is not None
                       and float(spec.shared_channel_bps.resolve(n)) > 0))
    for cell in cells:
        for seed in seeds[:1]:
            names = facts.cell_facts(sc, cell, seed)
            for key, hit in checks:
                if hit(names):
                    refuse(key, _why(key, model))
            expansion = topology.expand(sc, names, horizon_s=60.0)
            if expansion.gilbert:
                refuse("[topology] gilbert", _why("[topology] gilbert", model))
            if model == "rfpipe":
                _refuse_rfpipe(sc, names, expansion, refuse)
    return out


def _refuse_rfpipe(sc: Scenario, names: dict[str, Any], expansion: topology.Expansion, refuse) -> None:
    from . import emane_rfpipe
    spec = sc.emulator
    radio = {i: float(spec.radio_bps.resolve(names)) if spec.radio_bps is not None else 0.0
             for i in range(1, len(sc.nodes) + 1)}
    radio.update({i: float(p.resolve(names)) for i, p in spec.radio_bps_node.items()})
    shared = float(spec.shared_channel_bps.resolve(names)) if spec.shared_channel_bps is not None else 0.0
    try:
        emane_rfpipe.node_rates(expansion.events, len(sc.nodes), radio, shared)
        emane_rfpipe.pathloss_eel(expansion.events, len(sc.nodes), expansion.default_disconnected)
    except emane_rfpipe.RfpipeUnsupported as e:
        key, _, why = str(e).partition(": ")
        refuse(key, why)


def check(sc: Scenario, cells: list[Cell], seeds: list[int], engine: str, model: str = "commeffect") -> None:
    lost = refusals(sc, cells, seeds, engine, model)
    if lost:
        raise UserError("; ".join(lost) + " (emulation/README.md, 'Engines', maps every key)")


def markdown_table() -> str:
    rows = ["| scenario key | dissem-emu | EMANE, comm effect shim (default) | EMANE, RF Pipe (`--emane-model rfpipe`) |",
            "|---|---|---|---|"]
    for k in KEYS:
        rows.append(f"| {k.name} | {k.emu} | {k.emane or '**refused**: ' + k.refusal} | "
                    f"{k.rfpipe or '**refused**: ' + k.rfpipe_refusal} |")
    return "\n".join(rows)
