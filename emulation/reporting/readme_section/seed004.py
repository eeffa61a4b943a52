"""Seed 004: tracks over HF radio and satcom, dissemd against NORM and the
paper's tailored UDP; the rates where our target is missed, and why."""

from __future__ import annotations

import re
from typing import Any

from .cells import need, num, table_under
from .formatting import Links, md_table, span, tracks

PAGE = "seed004.md"
LINKS = (("seed004-hf-2nodes", "seed004-hf-3nodes", "HF"), ("seed004-satcom", None, "satcom"))
Verdict = tuple[str, str, str, dict[str, str]]   # (receivers, target, verdict, row)


def seed004(summary: dict[str, Any], link: Links) -> list[str]:
    table = Comparison(summary)
    bullets = _missed(table.misses)
    satcom = {int(need(r["rate bit/s"], PAGE)): r for r in table_under(summary, PAGE, "seed004-satcom").records()
              if r["system"] == "norm"}
    ours64 = {int(need(r["rate bit/s"], PAGE)): r for r in table_under(summary, PAGE, "seed004-satcom").records()
              if r["system"] == "dissem"}
    return [
        "### Seed 004: tracks over HF radio and satcom, with NORM",
        "",
        f"{link(PAGE, 'docs/results/seed004.md')}: 134-byte tracks offered at three times what the link carries,"
        " for 620 s on HF (a simplex channel in `dissem-emu`: one transmitter at a time, 1 s turnaround"
        " assumed) and 320 s on satcom (300 ms one way). dissemd runs with **only `engine.link_capacity_bps`**"
        " set; tracks/min completed while offered, at the worst receiver:",
        "",
        md_table(["link", "dissemd, 1 receiver", "dissemd, 2 receivers", "NORM, 1 / 2 receivers",
                  "paper (tailored UDP: 1 track per datagram; 11 packed)", "target"], table.body),
        "",
        f"With one receiver dissemd carries {span(table.ratios_all)}x NORM's tracks, at every rate ({link(PAGE)}): a"
        " track in a"
        " bundle costs about 5 bytes of protocol (the first of a stream's tracks in a datagram about 10) plus its"
        " share of the datagram's 42 bytes of Ethernet, IP and UDP headers, and the control traffic stays small"
        " (beacons deferred while the sender's data flows, backed off at the receivers when they have nothing"
        " new)." + (" Where we miss:" if bullets else ""),
    ] + bullets + [
        "",
        f"NORM delivers {span(table.ratios_hf)}x our tracks on HF ({link(PAGE)}): one object per track, each with"
        " NORM's own headers"
        " (about 24-28 bytes) and one UDP datagram, and its GRTT probing and NACK timers run far from the real"
        " round trip at these rates (its GRTT is capped at 10 s). Over satcom NORM's tool takes at most 32,767"
        " objects a run, so from 64 kbit/s on it was offered 102 tracks a second: above the link at 64 kbit/s"
        f" (where it delivered {tracks(need(satcom[64000]['worst receiver'], PAGE))}/min against our"
        f" {tracks(need(ours64[64000]['worst receiver'], PAGE))}), below it at 256 kbit/s and 2 Mbit/s; ours"
        " was offered 200 a second there, the scenario's cap.",
        "",
    ]


def _rate(rate: int, medium: str) -> str:
    if medium == "HF":
        return f"HF {rate} bit/s"
    return f"satcom {rate / 1e6:g} Mbit/s" if rate >= 1_000_000 else f"satcom {rate / 1000:g} kbit/s"


def _by_rate(summary: dict[str, Any], heading: str) -> dict[tuple[int, str], dict[str, str]]:
    return {(int(need(r["rate bit/s"], PAGE)), r["system"]): r for r in table_under(summary, PAGE, heading).records()}


def _verdicts(ours1: dict[str, str], ours2: dict[str, str] | None) -> list[Verdict]:
    """dissemd's target, met or missed, with one receiver and (where there is a table of them) two."""
    verdicts: list[Verdict] = []
    for label, r in (("one receiver", ours1), ("two receivers", ours2)):
        m = re.match(r"^≥ ([\d.]+): (met|missed)$", r["target (dissem)"]) if r is not None else None
        if m and r is not None:
            verdicts.append((label, m[1], m[2], r))
    return verdicts


def _target(verdicts: list[Verdict]) -> str:
    """The table's target cell: one verdict when the receivers agree, one per receiver count when not."""
    if verdicts and len({v[2] for v in verdicts}) == 1:
        return f"{verdicts[0][1]}: " + ("met" if verdicts[0][2] == "met" else "**missed**")
    if verdicts:
        return f"{verdicts[0][1]}: " + ", ".join(
            f"{v[2] if v[2] == 'met' else '**missed**'} with {v[0]}" for v in verdicts)
    return ""


class Comparison:
    """The table's rows per link and rate, the rates where a target was
    missed, and dissemd's tracks against NORM's with one receiver."""

    def __init__(self, summary: dict[str, Any]):
        self.body: list[list[str]] = []
        self.misses: dict[tuple[str, int], list[Verdict]] = {}
        self.ratios_hf: list[float | None] = []    # NORM's tracks / ours, on HF
        self.ratios_all: list[float | None] = []   # ours / NORM's, every link
        for one_name, two_name, medium in LINKS:
            one = _by_rate(summary, one_name)
            two = _by_rate(summary, two_name) if two_name else {}
            for rate in sorted({k[0] for k in one}):
                self._add(medium, rate, one, two)

    def _add(self, medium: str, rate: int, one: dict[tuple[int, str], dict[str, str]],
             two: dict[tuple[int, str], dict[str, str]]) -> None:
        ours1, norm1 = one[(rate, "dissem")], one.get((rate, "norm"))
        ours2, norm2 = two.get((rate, "dissem")), two.get((rate, "norm"))
        w = need(ours1["worst receiver"], PAGE)
        if norm1 and num(norm1["worst receiver"]):
            self.ratios_all.append(w / need(norm1["worst receiver"], PAGE))
            if medium == "HF":
                self.ratios_hf.append(need(norm1["worst receiver"], PAGE) / w)
        verdicts = _verdicts(ours1, ours2)
        target = _target(verdicts)
        if any(v[2] == "missed" for v in verdicts):
            self.misses[(medium, rate)] = [v for v in verdicts if v[2] == "missed"]
        paper = ours1["paper: UDP, 1 track/datagram"]
        packed = ours1["paper: UDP, 11 tracks/datagram"]
        self.body.append([_rate(rate, medium), tracks(w),
                          tracks(need(ours2["worst receiver"], PAGE)) if ours2 else "",
                          " / ".join(tracks(need(r["worst receiver"], PAGE)) for r in (norm1, norm2) if r),
                          tracks(need(paper, PAGE)) + (f"; {packed}" if packed else ""), target])


def _missed(misses: dict[tuple[str, int], list[Verdict]]) -> list[str]:
    """One bullet per link and rate where dissemd missed its target: the figures, the cause and the fix."""
    bullets = []
    for (medium, rate), missed in misses.items():
        figures = " and ".join(f"{tracks(need(r['worst receiver'], PAGE))} ({label})" for label, _, _, r in missed)
        head = f"- **{_rate(rate, medium)}: {figures} against {missed[0][1]}.**"
        labels = {label for label, _, _, _ in missed}
        if (medium, rate) == ("HF", 75):
            head += (" The group's send budget (60 s of link time, `engine.group_send_budget_ms`) holds only about"
                     " 4 tracks at 75 bit/s (60 s x 75 bit/s = 562 bytes), so each datagram carries about 4 tracks"
                     " and 42 bytes of headers, the first track goes out alone, and the bundle on the air when the"
                     f" {missed[0][3]['offered for s']} s offer ended is not counted (at 75 bit/s one such datagram"
                     " takes a tenth of the window). Closing it: a send budget of at least a few full datagrams'"
                     " air time on slow links, and a longer window.")
        elif medium == "HF" and labels == {"two receivers"}:
            head += (" On the simplex channel each receiver's beacon costs the sender two 1 s turnarounds and its"
                     " own air time, so a second receiver takes channel time from the data. Closing it: receivers"
                     " that hear the publisher's data could stay silent longer (their beacons carry nothing the"
                     " publisher needs at 0 % loss).")
        bullets.append(head)
    return bullets
