"""emulation/report --ours-vs-norm: ours/NORM time and bytes for every cell
of the baseline pages, one line per cell."""

from __future__ import annotations

from typing import Any

from .. import summary as summary_mod
from .baseline_pages import SHARED


def ours_vs_norm(summary: dict[str, Any]) -> list[str]:
    """One line per cell of every baseline page: ours/NORM time and bytes."""
    lines = []
    for page in sorted(summary["pages"]):
        if not page.startswith("baseline-"):
            continue
        for t in summary_mod.tables(summary, page):
            key = "ours/NORM"
            if key not in t.columns:
                continue
            kind = "time" if "ours s" in t.columns else "bytes"
            medium = "shared channel" if t.heading.startswith(SHARED) else "radios"
            for r in t.records():
                lines.append(f"{page.removesuffix('.md')}, {medium}, {r['rel %']} %, {r['kbit/s']} kbit/s: "
                             f"ours/NORM {kind} {r[key]}")
    # time and bytes of a cell side by side
    merged: dict[str, list[str]] = {}
    for line in lines:
        where, _, what = line.partition(": ")
        merged.setdefault(where, []).append(what.removeprefix("ours/NORM "))
    return [f"{where}: ours/NORM " + ", ".join(whats) for where, whats in merged.items()]
