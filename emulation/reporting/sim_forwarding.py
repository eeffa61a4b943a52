"""Forwarding controllers in the simulator (issue 32, section 6): fragment
transmissions (first pass, rebroadcasts, repairs) per delivered message,
and the ratio to flooding's, for every forwarding controller on the
multi-hop networks `dissem-sim` builds: the 5x5 grid with the publisher's
row, the far corner or every node subscribed, the rgg-50 scenario file
as it is (its two systems), and random geometric graphs of 50 nodes with
every node subscribed. Seeds 1-3 pooled, 80 % links. Runs dissem-sim
itself (seconds in all: virtual time), so every figure on the page, and in
the README part made from it, comes from a run, never from a note.

    emulation/report --sim-forwarding build/release/src/dissem-sim [--sim-forwarding-out FILE]"""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from pathlib import Path

from .markdown import table

PAGE = "sim-forwarding.md"
INDEX_LINE = f"- [{PAGE[:-3]}]({PAGE}): forwarding controllers in the simulator (grid, random geometric graphs)"
CONTROLLERS = ("flooding", "subscription-aware", "subscriber-tree", "relay-set")
SEEDS = (1, 2, 3)
TARGET = 0.5  # issue 32: at most half of flooding's frames per delivery, at 100 % delivery


@dataclass(frozen=True)
class Case:
    label: str
    argv: tuple[str, ...]  # dissem-sim arguments before --forwarding / --system
    scenario_file: bool = False  # systems of a scenario file (run --system) rather than --forwarding
    systems: tuple[str, ...] = CONTROLLERS


def cases(repo: Path) -> list[Case]:
    grid = ("grid", "--side", "5", "--reliability", "80")
    geometric = ("geometric", "--nodes", "50", "--degree", "9", "--subscribers-pct", "100", "--reliability", "80")
    return [
        Case("grid 5x5, corner -> its row (20 x 1 KB)", grid + ("--subscribers", "row")),
        Case("grid 5x5, corner -> the far corner (20 x 1 KB)", grid + ("--subscribers", "far-corner")),
        Case("grid 5x5, every node subscribed (20 x 1 KB)", grid + ("--subscribers", "all")),
        Case("rgg-50.toml as it is (corner -> 5 nodes 2-5 hops away, 20 x 4 KB from 12 s)",
             ("run", str(repo / "emulation" / "scenarios" / "rgg-50.toml"), "--cell", "reliability=0.8"),
             scenario_file=True, systems=("flooding", "subscriber-tree")),
        Case("random geometric graphs of 50, mean degree 9, every node subscribed (one graph per seed, 20 x 1 KB)",
             geometric),
    ]


@dataclass
class Pooled:
    transmissions: int = 0
    delivered: int = 0
    expected: int = 0

    def per_delivery(self) -> float | None:
        return self.transmissions / self.delivered if self.delivered else None


def run_case(sim: Path, case: Case, system: str) -> Pooled:
    pooled = Pooled()
    for seed in SEEDS:
        choice = ("--system", system) if case.scenario_file else ("--forwarding", system)
        argv = [str(sim), *case.argv, *choice, "--seed", str(seed), "--json"]
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=600)
        if proc.returncode != 0:
            raise RuntimeError(f"{' '.join(argv)} exited {proc.returncode}: {proc.stderr[-500:]}")
        metrics = json.loads(proc.stdout)["metrics"]
        pooled.transmissions += int(metrics["fragment_transmissions"])
        pooled.delivered += int(metrics["delivered"])
        pooled.expected += int(metrics["expected"])
    return pooled


def _cell(p: Pooled | None, flooding: Pooled | None) -> str:
    if p is None:
        return "-"
    value = p.per_delivery()
    if value is None:
        return "#N/A"
    base = flooding.per_delivery() if flooding is not None else None
    ratio = f" ({value / base:.2f}x)" if base and p is not flooding else ""
    whole = "" if p.delivered == p.expected else f", {p.delivered}/{p.expected} delivered"
    return f"{value:.2f}{ratio}{whole}"


def page(results: list[tuple[Case, dict[str, Pooled]]]) -> str:
    rows = []
    for case, by_system in results:
        flooding = by_system.get("flooding")
        rows.append([case.label] + [_cell(by_system.get(c), flooding) for c in CONTROLLERS])
    verdicts = []
    for case, by_system in results:
        flooding = by_system.get("flooding")
        best = [(p.per_delivery() / flooding.per_delivery(), name) for name, p in by_system.items()
                if name != "flooding" and flooding and p.per_delivery() and flooding.per_delivery()
                and p.delivered == p.expected]
        if not best:
            continue
        ratio, name = min(best)
        verdicts.append([case.label, name, f"{ratio:.2f}x", "met" if ratio <= TARGET else "missed"])
    return ("# sim-forwarding\n\nEngine: dissem-sim (virtual time; the same engine as dissemd).\n\n"
            "Fragment transmissions (first pass, rebroadcasts, repairs) per delivered message, seeds "
            f"{SEEDS[0]}-{SEEDS[-1]} pooled, 80 % links, and in brackets the ratio to flooding's. A cell says how "
            "many messages were delivered only when not all were. Written by `emulation/report --sim-forwarding` "
            "from dissem-sim's own runs (`dissem-sim grid`, `dissem-sim geometric`, `dissem-sim run`, "
            "`--json`).\n\n"
            + table(["network (simulator)", *CONTROLLERS], rows)
            + "\n\nThe best pruning controller per network, against the target of at most "
            f"{TARGET}x flooding's transmissions per delivery at 100 % delivery:\n\n"
            + table(["network", "best controller", "of flooding", "target"], verdicts) + "\n")


def write(sim: Path, out: Path, repo: Path) -> Path:
    results = [(case, {s: run_case(sim, case, s) for s in case.systems}) for case in cases(repo)]
    out.write_text(page(results))
    return out
