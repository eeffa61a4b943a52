"""Seed 003 (Mockets with random disconnections): 1 Hz updates over a link
with exponential outages; mean and maximum latency of the updates received
per system, beside the paper's Table 2 and the project's targets (scenario
seed003-disconnections)."""

from __future__ import annotations

from pathlib import Path
from statistics import mean

from . import seed_plots
from .markdown import fmt, table
from .seed_results import command_results, scenario_runs, verdict

SCENARIO_PREFIX = "seed003"
# Seed 003, Table 2 (reference README section 4): mean and max latency, ms.
PAPER = {"TCP sockets": (132.90, 6228.0), "Mockets": (13.44, 922.0)}
TARGET_MEAN_MS, TARGET_MAX_MS = 13.0, 922.0
TARGET_SYSTEM = "dissem"


def is_seed003(scenario: str) -> bool:
    return scenario.startswith(SCENARIO_PREFIX)


def run_figures(result: dict) -> dict:
    latencies, produced = [], 0
    received = 0
    for _, sub in command_results(result, "subscriber"):
        for m in sub.get("messages", []):
            latencies.append(float(m["latency_s"]) * 1000.0)
        received += len(sub.get("messages", []))
    for _, pub in command_results(result, "publisher"):
        produced += int(pub.get("messages_published") or 0)
    return {"system": result["system"], "seed": result["seed"], "status": result.get("status"),
            "latencies_ms": latencies, "produced": produced, "received": received}


def load(results_dir: Path, scenarios: list[str]) -> list[dict]:
    return [run_figures(r) for s in scenarios for r in scenario_runs(results_dir, s)]


HEADER = ["system", "runs ok", "updates produced", "updates received", "mean latency ms", "max latency ms",
          "target mean ≤ 13 ms", "target max ≤ 922 ms"]


def _rows(runs: list[dict]) -> list[list[str]]:
    rows = []
    for system in sorted({r["system"] for r in runs}):
        mine = [r for r in runs if r["system"] == system]
        lat = [x for r in mine for x in r["latencies_ms"]]
        avg, worst = (mean(lat), max(lat)) if lat else (None, None)
        is_target = system == TARGET_SYSTEM
        rows.append([system, f"{sum(r['status'] == 'ok' for r in mine)}/{len(mine)}",
                     fmt(mean(r["produced"] for r in mine), 0), fmt(mean(r["received"] for r in mine), 0),
                     fmt(avg, 2), fmt(worst, 0),
                     verdict(avg, TARGET_MEAN_MS, False) if is_target else "",
                     verdict(worst, TARGET_MAX_MS, False) if is_target else ""])
    for name, (avg, worst) in PAPER.items():
        rows.append([f"paper: {name}", "", "", "", fmt(avg, 2), fmt(worst, 0), "", ""])
    return rows


INTRO = (
    "Seed 003 (Mockets, random disconnections): a client sends a 1 KB update every second to a server over a "
    "10 Mbit/s link that passes nothing during exponential outages of mean 1 s separated by exponential gaps of "
    "mean 20 s (drawn from the run's seed: dissem and TCP runs of the same seed see the same outages). dissem: "
    "each update replaces the older undelivered one (Mockets' replacement); TCP: one connection, updates queue "
    "during an outage. Latency: production to receipt, over the updates received, all seeds pooled. Targets are "
    "the project's goals for dissem; the paper's rows are its Table 2.\n")


def section(runs: list[dict], out_dir: Path) -> str:
    seeds = sorted({r["seed"] for r in runs})
    text = ["## Seed 003: updates across random disconnections\n", f"{len(runs)} runs, seeds {seeds}. " + INTRO,
            table(HEADER, _rows(runs))]
    for png in seed_plots.latency_ecdf("seed003-disconnections", {s: [x for r in runs if r["system"] == s
                                                                      for x in r["latencies_ms"]]
                                                                  for s in sorted({r["system"] for r in runs})},
                                       out_dir):
        text.append(f"![{png.stem}]({png.name})\n")
    return "\n".join(text)
