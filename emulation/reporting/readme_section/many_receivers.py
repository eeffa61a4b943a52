"""Issue 32's many receivers (baseline-1to10, baseline-1to20): ours against
the faster NORM variant, and the issue's targets, read from baseline-1toN.md."""

from __future__ import annotations

from typing import Any

from .. import summary as summary_mod
from .formatting import Links, md_table

PAGE = "baseline-1toN.md"


def many_receivers(summary: dict[str, Any], link: Links) -> list[str]:
    """Nothing when the results have no such page (a campaign without these scenarios)."""
    if PAGE not in summary.get("pages", {}):
        return []
    body = []
    for t in summary_mod.tables(summary, PAGE):
        if "ours/NORM time" not in t.columns:
            continue
        scenario, _, variant = t.heading.partition(": ")
        channel = "shared" if "shared channel" in variant else "own radios"
        for r in t.records():
            body.append([scenario, channel, r["kbit/s"], r["ours s"], f"{r['NORM held to']}: {r[_norm_column(r)]}",
                         r["ours/NORM time"], r["time target"], r["ours/NORM bytes"], r["bytes target"]])
    return [
        "### Many receivers: 1 to 10 and 1 to 20, every link its own loss",
        "",
        f"{link(PAGE, 'docs/results/baseline-1toN.md')}: 819,200 bytes to 10 and 20 receivers over a full mesh"
        " whose every link draws its loss per seed in 5-40 %, where repairs from any node that holds the data"
        " should beat a protocol in which only the sender repairs. NORM runs with ACKs from every receiver and"
        " without; ours is held to the faster. Means over 3 seeds, with the issue's targets:",
        "",
        md_table(["scenario", "channel", "kbit/s", "ours s", "NORM s", "time / NORM", "target",
                  "bytes / NORM", "target"], body),
        "",
    ]


def _norm_column(record: dict[str, str]) -> str:
    return "NORM ACK s" if record["NORM held to"] == "ACK" else "NORM no-ACK s"
