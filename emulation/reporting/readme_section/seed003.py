"""Seed 003: updates across random disconnections, dissemd against TCP."""

from __future__ import annotations

import re
from typing import Any

from .cells import need, num, rows
from .formatting import Links, f0, f1, md_table


def seed003(summary: dict[str, Any], link: Links) -> list[str]:
    page = "seed003.md"
    recs = {r["system"]: r for r in rows(summary, page, "mean latency ms")}
    ours, tcp = recs["dissem"], recs["tcp"]

    def with_target(r: dict[str, str], value: str, column: str) -> str:
        m = re.match(r"^target (mean|max) ≤ (\d+) ms$", column)
        verdict = r.get(column, "")
        return f"**{value}** (target {m[2] if m else '?'}: {verdict})" if verdict else value

    mean_col = next(c for c in ours if c.startswith("target mean"))
    max_col = next(c for c in ours if c.startswith("target max"))
    body = []
    for system, r in recs.items():
        label = {"dissem": "dissemd (replace)", "tcp": "TCP"}.get(system, system)
        mean = f"{f1(need(r['mean latency ms'], page))} ms" if num(r["mean latency ms"]) is not None else ""
        top = f"{f0(need(r['max latency ms'], page))} ms" if num(r["max latency ms"]) is not None else ""
        received = f"{r['updates received']} of {r['updates produced']}" if r["updates received"] else ""
        body.append([label, received, with_target(r, mean, mean_col) if system == "dissem" else mean,
                     with_target(r, top, max_col) if system == "dissem" else top])
    lost = int(need(ours["updates produced"], page) - need(ours["updates received"], page))
    return [
        "### Seed 003: updates across random disconnections, with TCP",
        "",
        f"{link(page, 'docs/results/seed003.md')}: a 1 KB update a second over a 10 Mbit/s link that passes"
        " nothing during exponential outages (mean 1 s, gaps of mean 20 s), seeds of 10 minutes, TCP in the same"
        " runs (same outages). dissemd replaces each update with the next:",
        "",
        md_table(["system", "updates received", "mean latency", "max latency"], body),
        "",
        f"The {lost} updates dissemd did not deliver ({link(page)}) were produced during outages and replaced by"
        " the next before"
        " the link came back, as Mockets' replacement intends; TCP delivers them all"
        f" ({tcp['updates received']} of {tcp['updates produced']}), late, and everything behind them waits.",
        "",
    ]
