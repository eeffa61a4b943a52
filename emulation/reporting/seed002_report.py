"""Seed 002 (sensor messages over an emulated tactical radio): 6,134 event
messages over a 40 ms, 10 ms jitter, 10 % loss link; completeness and
latency percentiles per system beside the paper's EMANE column, and the
two systems' latency distributions compared with Kolmogorov-Smirnov and
Mann-Whitney tests (scenario seed002-sensors)."""

from __future__ import annotations

from pathlib import Path
from statistics import mean, stdev

from . import seed_plots
from .markdown import fmt, table
from .seed_results import command_results, quantile, scenario_runs

SCENARIO_PREFIX = "seed002"
# Seed 002, Table 2, EMANE column (reference README section 5): messages
# received, % dropped, then latency ms: min, 25th, median, 75th, max, mean, sd.
PAPER = {"TCP": (6134, 0.39, 31.19, 38.96, 45.13, 50.74, 21650.38, 201.57, 1072.85),
         "Mockets": (6131, 0.05, 31.05, 38.41, 44.01, 49.66, 1813.60, 66.37, 86.45)}
PAPER_TESTS = "Kolmogorov-Smirnov D = 0.1383, p < 2.2e-16; Mann-Whitney W = 20277247, p = 2.4e-15 (TCP vs Mockets)"


def is_seed002(scenario: str) -> bool:
    return scenario.startswith(SCENARIO_PREFIX)


def run_figures(result: dict) -> dict:
    lat, expected = [], 0
    for _, sub in command_results(result, "subscriber"):
        lat += [float(m["latency_s"]) * 1000.0 for m in sub.get("messages", [])]
        expected += sum(int(s.get("expected") or 0) for s in (sub.get("streams") or {}).values())
    return {"system": result["system"], "seed": result["seed"], "status": result.get("status"),
            "latencies_ms": lat, "expected": expected}


def load(results_dir: Path, scenarios: list[str]) -> list[dict]:
    return [run_figures(r) for s in scenarios for r in scenario_runs(results_dir, s)]


def summary(lat: list[float]) -> list[float | None]:
    if not lat:
        return [None] * 7
    return [min(lat), quantile(lat, 0.25), quantile(lat, 0.5), quantile(lat, 0.75), max(lat), mean(lat),
            stdev(lat) if len(lat) > 1 else 0.0]


def distribution_tests(a: list[float], b: list[float]) -> str:
    """KS and Mann-Whitney (two-sided) between two latency samples."""
    if len(a) < 2 or len(b) < 2:
        return "too few messages for the tests"
    from scipy import stats  # python3-scipy (scripts/setup.sh)
    ks = stats.ks_2samp(a, b)
    mw = stats.mannwhitneyu(a, b, alternative="two-sided")
    return f"Kolmogorov-Smirnov D = {ks.statistic:.4f}, p = {ks.pvalue:.3g}; Mann-Whitney U = {mw.statistic:.0f}, p = {mw.pvalue:.3g}"


HEADER = ["system", "runs ok", "messages received", "dropped %", "min ms", "25th ms", "median ms", "75th ms",
          "max ms", "mean ms", "sd ms"]


def _rows(runs: list[dict]) -> list[list[str]]:
    rows = []
    for system in sorted({r["system"] for r in runs}):
        mine = [r for r in runs if r["system"] == system]
        lat = [x for r in mine for x in r["latencies_ms"]]
        expected = sum(r["expected"] for r in mine)
        dropped = 100.0 * (expected - len(lat)) / expected if expected else None
        rows.append([system, f"{sum(r['status'] == 'ok' for r in mine)}/{len(mine)}", f"{len(lat)}/{expected}",
                     fmt(dropped, 2)] + [fmt(v, 2) for v in summary(lat)])
    for name, p in PAPER.items():
        rows.append([f"paper (EMANE): {name}", "", f"{p[0]}/6134", fmt(p[1], 2)] + [fmt(v, 2) for v in p[2:]])
    return rows


INTRO = (
    "Seed 002 (ISA sensor messages over an emulated tactical radio): event messages of 438 bytes (the paper's "
    "throughput x latency), 10 a second in their logged order, over a link with 40 ms latency, 10 ms jitter (added "
    "uniformly in [0, 10 ms]; EMANE draws around the latency) and 10 % loss each way. dissem delivers every message "
    "reliably; TCP is one connection. Dropped: messages never received before the receiver stopped (30 s after the "
    "last was produced). Latency: production to receipt, all seeds pooled. The paper's rows are its Table 2 EMANE "
    "column (Mockets and TCP).\n")


def section(runs: list[dict], out_dir: Path) -> str:
    by_system = {s: [x for r in runs if r["system"] == s for x in r["latencies_ms"]]
                 for s in sorted({r["system"] for r in runs})}
    text = ["## Seed 002: sensor messages over a lossy radio link\n", INTRO, table(HEADER, _rows(runs))]
    if "dissem" in by_system and "tcp" in by_system:
        text.append(f"Distributions, dissem vs TCP: {distribution_tests(by_system['dissem'], by_system['tcp'])}. "
                    f"Paper: {PAPER_TESTS}.\n")
    for png in seed_plots.latency_ecdf("seed002-sensors", by_system, out_dir):
        text.append(f"![{png.stem}]({png.name})\n")
    return "\n".join(text)
