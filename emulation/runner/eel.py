"""EMANE Event Log (EEL) commeffect lines: writer and reader.

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


def _nem(token: str, lineno: int) -> int:
    if not token.startswith("nem:"):
        raise EELError(f"line {lineno}: expected nem:<id>, found {token!r}")
    try:
        value = int(token[4:])
    except ValueError:
        raise EELError(f"line {lineno}: bad NEM id in {token!r}") from None
    if not 1 <= value <= 65535:
        raise EELError(f"line {lineno}: NEM id {value} outside 1..65535")
    return value


def read(text: str, convention: str = EMULATOR_CONVENTION) -> list[LinkEvent]:
    """Parse commeffect lines (blank lines and '#' comments are skipped).
    Other event types are refused: neither dissem-emu nor this runner would
    act on them, and silently ignoring them would hide a mistake."""
    if convention not in CONVENTIONS:
        raise ValueError(f"unknown EEL convention {convention!r}")
    events = []
    for lineno, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        fields = line.split()
        if len(fields) < 4:
            raise EELError(f"line {lineno}: expected '<time> nem:<id> commeffect nem:<id>,...'")
        try:
            t = float(fields[0])
        except ValueError:
            raise EELError(f"line {lineno}: bad time {fields[0]!r}") from None
        if t < 0:
            raise EELError(f"line {lineno}: negative time {fields[0]}")
        lead = _nem(fields[1], lineno)
        if fields[2] != "commeffect":
            raise EELError(f"line {lineno}: only commeffect events are supported, found {fields[2]!r}")
        for entry in fields[3:]:
            parts = entry.split(",")
            if len(parts) != 7:
                raise EELError(f"line {lineno}: commeffect entry {entry!r} needs 7 comma-separated fields "
                               "nem:<id>,latency,jitter,loss,dup,unicast_bps,broadcast_bps")
            other = _nem(parts[0], lineno)
            if other == lead:
                raise EELError(f"line {lineno}: nem:{lead} has an entry for itself")
            try:
                lat, jit, loss, dup = (float(v) for v in parts[1:5])
                ucast, bcast = int(parts[5]), int(parts[6])
            except ValueError:
                raise EELError(f"line {lineno}: non-numeric field in {entry!r}") from None
            if min(lat, jit, loss, dup, ucast, bcast) < 0 or loss > 100:
                raise EELError(f"line {lineno}: out-of-range field in {entry!r} (loss 0..100, others >= 0)")
            params = LinkParams(lat, jit, loss, dup, ucast, bcast)
            sender, receiver = (other, lead) if convention == RECEIVER_FIRST else (lead, other)
            events.append(LinkEvent(t, sender, receiver, params))
    return events


def links_at(events: Iterable[LinkEvent], time_s: float) -> dict[tuple[int, int], LinkParams]:
    """The state of every mentioned link after all events up to time_s."""
    state: dict[tuple[int, int], LinkParams] = {}
    for ev in sorted(events, key=lambda e: e.time_s):
        if ev.time_s <= time_s:
            state[(ev.sender, ev.receiver)] = ev.params
    return state
