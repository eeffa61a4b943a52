"""The baseline pages (the paper's Tables 1 and 2): per page and medium,
the time and bytes tables merged into one record per cell."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..summary import SummaryError
from .cells import fraction, need, num, rows

RADIOS = "Every node a radio of its own"   # the baseline pages' headings (baseline_report.section)
SHARED = "One shared channel"
BASELINES = (("baseline-1to1.md", "1 to 1"), ("baseline-1to3.md", "1 to 3"))
MID_RATES = (128, 256, 512, 1024)          # "128 kbit/s to 1 Mbit/s"
LOSSY = (90, 80, 70)
PGM, JGROUPS = 3, 4   # positions in the 'complete' column


class Baseline:
    """One baseline page and medium: the time and bytes tables merged per cell."""

    def __init__(self, summary: dict[str, Any], page: str, heading: str):
        self.page = page
        times = rows(summary, page, "ours/bound", heading)
        sizes = rows(summary, page, "ours MB", heading)
        self.cells: dict[tuple[int, int], dict[str, str]] = {}
        for t, b in zip(times, sizes):
            key = (int(need(t["rel %"], page)), int(need(t["kbit/s"], page)))
            if key != (int(need(b["rel %"], page)), int(need(b["kbit/s"], page))):
                raise SummaryError(f"{page}: the time and bytes tables list different cells")
            self.cells[key] = {**{f"time {k}": v for k, v in t.items()}, **{f"bytes {k}": v for k, v in b.items()}}

    def pick(self, rels: Iterable[int], rates: Iterable[int]) -> list[dict[str, str]]:
        rates = list(rates)
        return [c for (rel, rate), c in self.cells.items() if rel in rels and rate in rates]

    def values(self, column: str, rels: Iterable[int], rates: Iterable[int]) -> list[float | None]:
        return [num(c[column]) for c in self.pick(rels, rates)]

    def ratios(self, top: str, bottom: str, rels: Iterable[int], rates: Iterable[int]) -> list[float | None]:
        out: list[float | None] = []
        for c in self.pick(rels, rates):
            a, b = num(c[top]), num(c[bottom])
            out.append(a / b if a is not None and b else None)
        return out

    def completed(self, system_index: int, rels: Iterable[int], rates: Iterable[int]) -> tuple[int, int]:
        done = runs = 0
        for c in self.pick(rels, rates):
            d, n = fraction(c["bytes complete ours / ARQ / NORM / OpenPGM / JGroups"].split(" / ")[system_index])
            done, runs = done + d, runs + n
        return done, runs

    def incomplete(self, system_index: int) -> list[str]:
        out = []
        for (rel, rate), c in self.cells.items():
            d, n = fraction(c["bytes complete ours / ARQ / NORM / OpenPGM / JGroups"].split(" / ")[system_index])
            if d < n:
                out.append(f"{rel} %/{rate} kbit/s ({d}/{n})")
        return out


def baselines(summary: dict[str, Any]) -> dict[tuple[str, str], Baseline]:
    """Every baseline page on either medium, by (page, "radios" or "shared")."""
    return {(page, medium): Baseline(summary, page, heading)
            for page, _ in BASELINES for medium, heading in (("radios", RADIOS), ("shared", SHARED))}
