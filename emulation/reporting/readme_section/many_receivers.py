"""Issue 32's many receivers (baseline-1to10, baseline-1to20): ours against
the faster NORM variant, and the issue's targets, read from baseline-1toN.md."""

from __future__ import annotations

from typing import Any

from .. import summary as summary_mod
from .cells import num
from .formatting import Links, md_table

PAGE = "baseline-1toN.md"


def many_receivers(summary: dict[str, Any], link: Links) -> list[str]:
    """Nothing when the results have no such page (a campaign without these scenarios)."""
    if PAGE not in summary.get("pages", {}):
        return []
    body = []
    shared_drops = []
    own_ratios: list[float] = []
    for t in summary_mod.tables(summary, PAGE):
        if "ours/NORM time" not in t.columns:
            continue
        scenario, _, variant = t.heading.partition(": ")
        channel = "shared" if "shared channel" in variant else "own radios"
        for r in t.records():
            body.append([scenario, channel, r["kbit/s"], r["ours s"], f"{r['NORM held to']}: {r[_norm_column(r)]}",
                         r["ours/NORM time"], r["time target"], r["ours/NORM bytes"], r["bytes target"]])
            if channel == "own radios" and (value := num(r["ours/NORM time"])) is not None:
                own_ratios.append(value)
            if channel == "shared":
                shared_drops.append(f"{scenario} at {r['kbit/s']} kbit/s: {r['radio-queue drops per run ours / NORM']}")
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
        "Where we lose, and why: on one shared channel our publisher keeps pacing its first pass at the"
        " channel's rate while the receivers' repairs take part of the air, so its own radio queue overflows"
        f" (frames dropped there per run, ours / NORM, {link(PAGE)}: " + "; ".join(shared_drops) + "); every dropped frame"
        " is loss the receivers must then repair. With radios of their own we are "
        + ("ahead in time in every cell but not by the issue's margin" if own_ratios and max(own_ratios) < 1
           else "not ahead in every cell")
        + ": the receivers rarely hear more air than one channel carries, so they seldom"
        " prove separate radios, and without that proof the publisher still sizes its redundancy for the worst"
        " receiver.",
        "",
    ]


def _norm_column(record: dict[str, str]) -> str:
    return "NORM ACK s" if record["NORM held to"] == "ACK" else "NORM no-ACK s"
