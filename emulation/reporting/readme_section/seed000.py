"""Seed 000: message replacement for timeliness (Mockets), dissemd against
TCP and the paper's figures, in four experiments."""

from __future__ import annotations

import re
from typing import Any

from .cells import need, num, rows, table_under
from .formatting import Links, f0, md_table, ms

PAGE = "seed000.md"
SYSTEMS = ("dissem-replace", "dissem-replace-source", "dissem", "tcp")
EXPERIMENTS = ((1, "1"), (2, "2, position / sensor"), (3, "3, position; images"), (4, "4, rate adaptation on"))


def seed000(summary: dict[str, Any], link: Links) -> list[str]:
    exp = Experiments(summary)
    body = [exp.table_row(n, label) for n, label in EXPERIMENTS]
    return [
        "### Seed 000: message replacement for timeliness (Mockets), with TCP",
        "",
        f"{link(PAGE, 'docs/results/seed000.md')}: a server publishes position updates (1 KB, 20 sources at 1 Hz)"
        " to a client behind a 5 KB/s link with a 4-frame queue; experiment 2 adds a 20 Hz sensor stream, 3 adds"
        " 5 KB images every 10 s at high priority, never replaced; 4 is 10 sources over a link of 40 KB/s that"
        " drops to 5 KB/s for 10 s a minute. Mean latency from production to receipt, TCP and dissemd in the"
        " same runs:",
        "",
        md_table(["experiment", "dissemd, replace per stream", "dissemd, replace per source",
                  "dissemd, no replacement", "TCP", "paper (Mockets; SCPS-TP, SCTP)"], body),
        "",
        _findings(exp, link),
        "",
    ]


def _of(text: str) -> str:
    """"20.0 / 20" -> "20 of 20" (a mean over runs keeps its decimal when it has one)."""
    got, _, of = text.partition(" / ")
    value = need(got, text)
    return f"{value:g} of {of}"


class Experiments:
    """The page's four experiments: their latency rows by (stream, system)
    and their link rows (frames dropped at the queue) by system."""

    def __init__(self, summary: dict[str, Any]):
        self.exp: dict[int, dict[tuple[str, str], dict[str, str]]] = {}
        self.links: dict[int, dict[str, dict[str, str]]] = {}
        for n in (1, 2, 3, 4):
            t = table_under(summary, PAGE, f"Experiment {n}")
            self.exp[n] = {(r["stream"], r["system"]): r for r in t.records()}
            self.links[n] = {r["system"]: r for r in rows(summary, PAGE, "frames dropped at the 4-frame queue",
                                                           f"Experiment {n}")}

    def mean(self, n: int, stream: str, system: str) -> str:
        r = self.exp[n].get((stream, system))
        value = num(r["mean ms"]) if r else None
        return "-" if value is None else ms(value)

    def target(self, n: int, stream: str, system: str) -> str:
        r = self.exp[n].get((stream, system))
        m = re.match(r"^(\d+) \((met|not met)\)$", r["target ms"]) if r else None
        return f" (target {m[1]} ms: {m[2]})" if m else ""

    def paper(self, n: int, stream: str) -> str:
        parts = []
        for label in ("Mockets (replacement)", "SCPS-TP", "SCTP"):
            r = self.exp[n].get((stream, f"paper: {label}"))
            if r is None:
                continue
            value = num(r["mean ms"])
            name = label.split(" ")[0]
            if value is not None:
                parts.append(f"{name} {ms(value)}")
            elif "without bound" in r["paper says"]:
                parts.append(f"{name} unbounded")
        return "; ".join(parts)

    def images(self, system: str) -> str:
        r = self.exp[3][("image", system)]
        return f"{f0(need(r['received'], PAGE))}/{r['produced']} images ({self.mean(3, 'image', system)})"

    def cell(self, n: int, system: str) -> str:
        if n == 2:
            return f"{self.mean(2, 'position', system)} / {self.mean(2, 'sensor', system)}"
        if n == 3:
            return f"{self.mean(3, 'position', system)}; {self.images(system)}"
        text = self.mean(n, "position", system) + self.target(n, "position", system)
        if n == 4 and system == "dissem-replace":
            text += f", p95 {ms(need(self.exp[4][('position', system)]['p95 ms'], PAGE))}"
        return text

    def table_row(self, n: int, label: str) -> list[str]:
        return ([label] + [(f"**{self.cell(n, s)}**" if s == "dissem-replace" else self.cell(n, s)) for s in SYSTEMS]
                + [self.paper(n, "position") + (f" / sensor {self.paper(n, 'sensor')}" if n == 2 else "")
                   + (f"; images {self.paper(n, 'image')}" if n == 3 else "")])


def _findings(exp: Experiments, link: Links) -> str:
    """What replacement bounds, what rate adaptation does in experiment 4, per stream against per source."""
    e1 = exp.exp[1]
    per_stream, per_source = e1[("position", "dissem-replace")], e1[("position", "dissem-replace-source")]
    plain4 = exp.exp[4][("position", "dissem")]
    missed = "not met" in exp.exp[4][("position", "dissem-replace")]["target ms"]
    links = exp.links
    return (
        "Replacement bounds the latency where TCP and reliable delivery without it queue every update behind"
        f" every older one ({link(PAGE)}). Experiment 4 runs with rate adaptation on (`engine.rate_adaptation`,"
        " off by default; *Timers and the link*): without it dissemd kept pacing at 40 KB/s through"
        " the dip and frames died in the emulator's 4-frame queue, where replacement cannot reach them; with it"
        " the publisher sees the queue in its missing beacons and their round trips, and paces below what the"
        " client reports receiving, by as much as the queue's growth says"
        f" ({links[4]['dissem-replace']['frames dropped at the 4-frame queue']} frames a run dropped at the queue,"
        f" TCP {links[4]['tcp']['frames dropped at the 4-frame queue']})."
        + (" Where the target is missed, part of it is the link itself: an update takes 25 ms at 40 KB/s and"
           " 200 ms at 5 KB/s (1 KB, before headers), and the rest is the time it takes to notice the dip."
           if missed else "")
        + " Without replacement, adaptation moves the dip's backlog from the radio's queue into ours, paced"
        f" at about the link's rate ({ms(need(plain4['mean ms'], PAGE))} mean; {plain4['received']} of"
        f" {plain4['produced']} updates a run arrived before the runs ended). Replacing per source (a source's"
        " update supersedes only its own) keeps every source's last update (in experiment 1, the last update"
        f" of {_of(per_source['final updates / sources'])} sources arrived, against"
        f" {_of(per_stream['final updates / sources'])} per stream), but twenty updates of one round wait behind"
        " one another on a 5 KB/s link. Without replacement dissemd runs with its send budget off here, as the"
        " paper's senders queue"
        " without bound: with the default budget (60 s of link time per group) its publisher is held back"
        " instead.")
