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
    emane: str                # how EMANE realises it; "" = refused
    refusal: str = ""         # why EMANE cannot (when emane == "")


_COMMEFFECT = "a comm effect entry per (transmitter, receiver) in the EEL the event service plays"
KEYS: tuple[Key, ...] = (
    Key("[topology] kind, and the links it makes (full, line, grid, partition-heal, geometric)",
        "EEL commeffect entries", _COMMEFFECT),
    Key("[topology] eel / eel_file / eel_convention", "the EEL as written", "the same EEL, in EMANE's reading order"),
    Key("[topology] capacity_bps", "each link's drop-tail serialisation", "the entry's unicast and broadcast "
        "bit rates (the shim serialises each source's packets at the receiver)"),
    Key("[topology] reliability", "independent loss per link and packet", "the entry's loss percentage"),
    Key("[topology] latency_ms, jitter_ms", "delay + U[0, jitter]", "the entry's latency and jitter"),
    Key("[topology] dup_pct", "duplicates", "the entry's duplicate percentage"),
    Key("[topology] default_disconnected", "--default-disconnected", "shim defaultconnectivitymode off"),
    Key("[[topology.override]] (without gilbert)", "EEL entries at t = 0", "EEL entries at t = 0"),
    Key("[[topology.event]]", "timed EEL entries", "timed EEL entries (from the event service's start)"),
    Key("[[topology.outage]]", "timed 100 % loss entries, drawn per seed", "the same entries"),
    Key("[topology] partition_at_s, heal_at_s", "timed 100 % loss entries", "the same entries"),
    Key("[topology] gilbert, [[topology.override]] gilbert", "per-link Gilbert-Elliott chain", "",
        "the comm effect shim draws each packet's loss independently: no burst loss"),
    Key("[emulator] radio_bps, radio_bps_node", "a radio stage serialising all a node sends",
        "folded into each link from the node: min(radio, link) rate, lost packets taking their time as on a radio"),
    Key("[emulator] queue_packets", "drop-tail queues of that many frames",
        "shim receivebufferperiod: that many full-size frames at the slowest rate into the node"),
    Key("[emulator] shared_channel_bps (> 0)", "one channel all nodes take turns on", "",
        "a shared medium needs a radio model (RF Pipe or 802.11abg), not the comm effect shim"),
    Key("[emulator] half_duplex_bps, turnaround_ms, max_hold_ms", "a half-duplex channel with turns", "",
        "a half-duplex channel needs a radio model with turns (TDMA), not the comm effect shim"),
    Key("[emulator] gilbert", "Gilbert-Elliott burst loss on every link", "",
        "the comm effect shim draws each packet's loss independently: no burst loss"),
    Key("[emulator] pcap", "the emulator's own per-node captures", "dumpcap on each node's emane0"),
    Key("[emulator] ready_timeout_s, stop_timeout_s, duration_margin_s", "runner-side", "runner-side, the same"),
    Key("[emulator] extra_args", "extra dissem-emu options", "",
        "they are dissem-emu's options; dissem-emane takes none of them"),
    Key("[nodes] start delays (late starts)", "runner-side", "runner-side, the same"),
)


def _why(name: str) -> str:
    """The refusal of the KEYS row whose name starts with `name`."""
    return next(k.refusal for k in KEYS if k.name.startswith(name))


def refusals(sc: Scenario, cells: list[Cell], seeds: list[int], engine: str) -> list[str]:
    """Every key of `sc` that `engine` cannot run, in any of the cells,
    each with its reason (empty: everything maps)."""
    if engine == "dissem-emu":
        return []
    out: list[str] = []

    def refuse(key: str, why: str) -> None:
        line = f"{sc.path.name}: {key}: cannot run on EMANE's comm effect shim ({why})"
        if line not in out:
            out.append(line)

    spec = sc.emulator
    checks: list[tuple[str, Callable[[dict[str, Any]], bool], str]] = [
        ("[emulator] shared_channel_bps", lambda n: spec.shared_channel_bps is not None
         and float(spec.shared_channel_bps.resolve(n)) > 0, _why("[emulator] shared_channel_bps")),
        ("[emulator] half_duplex_bps", lambda n: spec.half_duplex_bps is not None, _why("[emulator] half_duplex_bps")),
        ("[emulator] gilbert", lambda n: spec.gilbert is not None, _why("[emulator] gilbert")),
        ("[emulator] extra_args", lambda n: bool(spec.extra_args), _why("[emulator] extra_args")),
    ]
    for cell in cells:
        for seed in seeds[:1]:
            names = facts.cell_facts(sc, cell, seed)
            for key, hit, why in checks:
                if hit(names):
                    refuse(key, why)
            expansion = topology.expand(sc.topology, names, len(sc.nodes), horizon_s=60.0)
            if expansion.gilbert:
                refuse("[topology] gilbert", _why("[topology] gilbert"))
    return out


def check(sc: Scenario, cells: list[Cell], seeds: list[int], engine: str) -> None:
    lost = refusals(sc, cells, seeds, engine)
    if lost:
        raise UserError("; ".join(lost) + " (emulation/README.md, 'Engines', maps every key)")


def markdown_table() -> str:
    rows = ["| scenario key | dissem-emu | EMANE (comm effect shim) |", "|---|---|---|"]
    for k in KEYS:
        rows.append(f"| {k.name} | {k.emu} | {k.emane or '**refused**: ' + k.refusal} |")
    return "\n".join(rows)
