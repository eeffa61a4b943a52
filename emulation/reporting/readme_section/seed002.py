"""Seed 002: sensor messages over a lossy radio link, dissemd against TCP."""

from __future__ import annotations

from typing import Any

from .cells import fraction, need, rows
from .formatting import Links, f0, f1, md_table, ms


def seed002(summary: dict[str, Any], link: Links) -> list[str]:
    page = "seed002.md"
    recs = rows(summary, page, "median ms")
    by = {r["system"]: r for r in recs}
    columns = ["min ms", "25th ms", "median ms", "75th ms", "max ms", "mean ms", "sd ms"]
    labels = {"dissem": "dissemd", "tcp": "TCP", "paper (EMANE): TCP": "paper: TCP (EMANE)",
              "paper (EMANE): Mockets": "paper: Mockets (EMANE)"}
    body = [[labels.get(r["system"], r["system"]), r["messages received"]]
            + [f1(need(r[c], page)) if need(r[c], page) < 1000 else f0(need(r[c], page)) for c in columns]
            for r in recs]
    ours, tcp, mockets = by["dissem"], by["tcp"], by["paper (EMANE): Mockets"]
    got, sent = fraction(ours["messages received"])

    def v(r: dict[str, str], c: str) -> float:
        return need(r[c], page)

    tail = "shorter" if v(ours, "max ms") < v(tcp, "max ms") else "longer"
    later = v(ours, "median ms") - v(tcp, "median ms")
    return [
        "### Seed 002: sensor messages over a lossy radio link, with TCP",
        "",
        f"{link(page, 'docs/results/seed002.md')}: the paper's 6,134 event messages (438 bytes, the paper's"
        " throughput x latency; 10 a second, time compressed, order kept) over a link with 40 ms latency, 10 ms"
        " jitter and 10 % loss each way, reliable delivery; latency from production to receipt in ms (the"
        " page has the two distributions' tests):",
        "",
        md_table(["system", "received"] + [c.removesuffix(" ms") for c in columns[:-1]] + ["sd (ms)"], body),
        "",
        f"dissemd's tail is {tail} than TCP's ({link(page)}: 75th percentile {f0(v(ours, '75th ms'))} against"
        f" {f0(v(tcp, '75th ms'))} ms, max {ms(v(ours, 'max ms'))} against {ms(v(tcp, 'max ms'))}), "
        + (f"but its median is {f0(later)} ms later (the bundling delay and the pacing of a 10 a second"
           " stream) and " if later >= 1 else "and ")
        + "a lost message waits for the receiver's request round and a random serving delay, so its mean"
        f" ({f0(v(ours, 'mean ms'))} ms) is above Mockets' {f0(v(mockets, 'mean ms'))} ms, which retransmits"
        " from acknowledgements on a point-to-point link."
        + (f" {sent - got} message{'s were' if sent - got > 1 else ' was'} still missing when the receiver stopped"
           " 30 s after the last." if got < sent else ""),
    ]
