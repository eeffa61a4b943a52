"""EMANE Event Log (EEL) commeffect lines: the writer, and the reader
(dissem-sim read-eel: the one reader, src/scenario/eel_reader.h, which
dissem-emu and literal EEL in scenarios use too).

    <time_s> nem:<X> commeffect nem:<Y>,<latency_s>,<jitter_s>,<loss_pct>,<dup_pct>,<unicast_bps>,<broadcast_bps> [nem:<Z>,...]

Internally every entry is a directed link: sender -> receiver with its
effects. Which of X and Y is the sender is a *convention*, and two are in
use:

* RECEIVER_FIRST: X is the receiver, Y the sender ("X applies these effects
  to packets from Y"): how the commeffect event is *delivered*, and a
  reading some hand-written files use; accepted for literal EEL.
* SENDER_FIRST: X is the sender, Y the receiver. dissem-emu reads files this
  way because it is how EMANE's own
  eelloadercommeffect reads a file: it builds the CommEffect entry with
  X's NEM id (the source whose packets are affected) and delivers the
  event to NEM Y, whose commeffect shim looks effects up by packet source.

Keeping the convention explicit lets the same link list go to dissem-emu
and to an EMANE testbed without turning asymmetric links around.
"""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass, replace
from typing import Iterable

RECEIVER_FIRST = "receiver-first"
SENDER_FIRST = "sender-first"
CONVENTIONS = (RECEIVER_FIRST, SENDER_FIRST)

# The convention of EEL files handed to dissem-emu: EMANE's own, so one EEL
# file drives both the one-machine emulator and an EMANE testbed.
EMULATOR_CONVENTION = SENDER_FIRST
# The convention of EMANE's eelloadercommeffect (see the module docstring).
EMANE_CONVENTION = SENDER_FIRST


class EELError(ValueError):
    """A malformed EEL line; the message names the line number."""


@dataclass(frozen=True)
class LinkParams:
    latency_s: float = 0.0
    jitter_s: float = 0.0
    loss_pct: float = 0.0
    dup_pct: float = 0.0
    unicast_bps: int = 0      # 0: no rate limit (EMANE's meaning)
    broadcast_bps: int = 0

    @property
    def disabled(self) -> bool:
        return self.loss_pct >= 100.0

    def disable(self) -> "LinkParams":
        return replace(self, loss_pct=100.0)

    @classmethod
    def from_scenario(cls, capacity_bps: float, reliability: float, latency_ms: float,
                      jitter_ms: float, dup_pct: float) -> "LinkParams":
        bps = int(round(capacity_bps))
        return cls(latency_s=_clean(latency_ms / 1000.0), jitter_s=_clean(jitter_ms / 1000.0),
                   loss_pct=_clean(100.0 * (1.0 - reliability)), dup_pct=_clean(dup_pct),
                   unicast_bps=bps, broadcast_bps=bps)


@dataclass(frozen=True)
class LinkEvent:
    time_s: float
    sender: int      # NEM / node id, 1-based
    receiver: int
    params: LinkParams


def _clean(x: float) -> float:
    # 100*(1-0.9) is 9.999999999999998; EEL files are read by people.
    return round(x, 9) + 0.0


def number(x: float) -> str:
    """Shortest faithful text for a number: 0, 20, 0.9, 1e-05 stays exact."""
    x = float(x)
    if x.is_integer() and abs(x) < 1e15:
        return str(int(x))
    return repr(x)


def write(events: Iterable[LinkEvent], convention: str = EMULATOR_CONVENTION) -> str:
    """EEL text, one line per (time, leading NEM), entries sorted by NEM id."""
    if convention not in CONVENTIONS:
        raise ValueError(f"unknown EEL convention {convention!r}")
    lines: dict[tuple[float, int], list[tuple[int, LinkParams]]] = {}
    for ev in events:
        lead, other = (ev.receiver, ev.sender) if convention == RECEIVER_FIRST else (ev.sender, ev.receiver)
        lines.setdefault((ev.time_s, lead), []).append((other, ev.params))
    out = []
    for (t, lead) in sorted(lines):
        entries = []
        for other, p in sorted(lines[(t, lead)], key=lambda e: e[0]):
            entries.append(",".join([f"nem:{other}", number(p.latency_s), number(p.jitter_s),
                                     number(p.loss_pct), number(p.dup_pct),
                                     str(int(p.unicast_bps)), str(int(p.broadcast_bps))]))
        out.append(f"{number(t)} nem:{lead} commeffect " + " ".join(entries))
    return "\n".join(out) + ("\n" if out else "")


def read(text: str, convention: str = EMULATOR_CONVENTION) -> list[LinkEvent]:
    """Directed link events of commeffect lines, read by dissem-sim read-eel
    (blank lines and '#' comments skipped; other event types refused:
    silently ignoring them would hide a mistake). EELError names the line."""
    if convention not in CONVENTIONS:
        raise ValueError(f"unknown EEL convention {convention!r}")
    from . import expander  # expander builds on this module's types
    argv = [expander.require(), "read-eel", "-", "--convention", convention]
    done = subprocess.run(argv, input=text, capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        message = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "dissem-sim read-eel failed"
        raise EELError(message.removeprefix("dissem-sim: -: "))
    return [LinkEvent(e["at_s"], e["from"], e["to"],
                      LinkParams(e["latency_s"], e["jitter_s"], e["loss_pct"], e["dup_pct"], e["unicast_bps"],
                                 e["broadcast_bps"]))
            for e in json.loads(done.stdout)["events"]]


def links_at(events: Iterable[LinkEvent], time_s: float) -> dict[tuple[int, int], LinkParams]:
    """The state of every mentioned link after all events up to time_s."""
    state: dict[tuple[int, int], LinkParams] = {}
    for ev in sorted(events, key=lambda e: e.time_s):
        if ev.time_s <= time_s:
            state[(ev.sender, ev.receiver)] = ev.params
    return state
