"""A gateway between a MANET and an HF net: the tracks that crossed to the
HF side's subscriber, against seed 004's one simplex link, and what B's
channel carried that nobody on B asked for."""

from __future__ import annotations

from typing import Any

from .cells import num, rows
from .formatting import Links, md_table, tracks

PAGE = "two-nets.md"


def _held(text: str) -> str:
    value = num(text)
    return "n/a" if value is None else f"{value:,.0f} B"


def two_nets(summary: dict[str, Any], link: Links) -> list[str]:
    recs = rows(summary, PAGE, "tracks/min at B's subscriber")
    body = []
    for r in recs:
        ours = num(r["tracks/min at B's subscriber"])
        body.append([f"{r['rate bit/s']} bit/s", f"`{r['system']}`", tracks(ours) if ours is not None else "n/a",
                     r["seed004 HF, same rate (dissem: 1 / 2 receivers)"], r["tracks carried to B"],
                     r["file on A (receivers complete)"],
                     _held(r["file's group held on B (bytes)"]), r["bytes on B's air (gateway / B's nodes)"]])
    return [
        f"**A gateway between two networks** ({link(PAGE)}): a publisher on a 1 Mbit/s MANET with 10 % loss offers"
        " 134-byte tracks (seed 004's load: three times what the HF side carries) and a 200 KB file; a subscriber"
        " on a half-duplex HF net wants the tracks; one node is on both. With `dissem` the gateway's HF interface"
        " is a link of its own at the HF rate (`dissem-hf-derated`: at 75 % of it, what the simplex channel gives"
        " one sender once the others' turns and 1 s turnarounds are taken); with `dissem-one-link` both of its"
        " radios share one link at the MANET's rate, as before. Tracks/min completed at the HF subscriber while offered, beside seed 004's"
        " single simplex link with no gateway (1 / 2 receivers); 'held on B' is what the HF side's nodes, which"
        " cache whatever they hear, hold of the file's group at the end:\n",
        md_table(["HF rate", "system", "tracks/min at B", "seed004, no gateway", "carried to B",
                  "file on A", "file's group held on B", "bytes on B's air (gateway / B's nodes)"], body) + "\n",
        "Paced at the HF channel's nominal rate, the gateway fills its radio's queue, which it cannot see (its"
        " rate adaptation reads beacon echoes, rare on this channel), and tracks wait there past their lifetime;"
        " paced below what the channel gives, its own queue holds the backlog and sends only what can still arrive"
        f" in time. Why, and what would close the gap without setting the rate by hand: {link(PAGE)}.\n",
    ]
