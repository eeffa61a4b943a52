"""Multi-hop and disruption experiments (issue: controllers): a line, a
grid, a partition that heals. Every cell and system gets the delivery ratio,
per-message latency, transmissions per delivered message and, where the
cell names `heal_at_s`, the time from the heal to the last delivery."""

from __future__ import annotations

import json
from pathlib import Path
from statistics import mean

from .markdown import fmt, table


def _quantile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run_figures(result: dict) -> dict:
    """Delivered/expected over subscribers, latencies, frames on the air."""
    expected = delivered = duplicates = 0
    latencies, completions = [], []
    for node in result.get("nodes", []):
        res = node.get("result")
        if "subscriber" not in node.get("roles", []):
            continue
        if not isinstance(res, dict):
            expected += 1  # a subscriber that printed nothing delivered nothing
            continue
        expected += int(res.get("expected", 0))
        delivered += int(res.get("messages_completed", 0))
        duplicates += int(res.get("duplicates", 0))
        latencies += [float(m["latency_s"]) for m in res.get("messages", [])]
        completions += [float(m["completed_unix"]) for m in res.get("messages", [])]
    stats = (result.get("emulator") or {}).get("stats") or {}
    frames = sum(int(n.get("frames_sent", 0)) for n in stats.get("nodes", []))
    heal = (result.get("cell") or {}).get("heal_at_s")
    ready = (result.get("emulator") or {}).get("ready_unix")
    after_heal = None
    if heal is not None and ready and completions and delivered == expected:
        after_heal = max(completions) - (ready + float(heal))
    return {"expected": expected, "delivered": delivered, "duplicates": duplicates, "latencies": latencies,
            "frames": frames, "after_heal_s": after_heal}


def section(name: str, results: list[dict]) -> str:
    cells: dict[tuple, dict[str, list[dict]]] = {}
    for r in results:
        key = tuple(sorted((r.get("cell") or {}).items()))
        cells.setdefault(key, {}).setdefault(r["system"], []).append(run_figures(r))
    rows = []
    for key, systems in sorted(cells.items(), key=lambda kv: str(kv[0])):
        label = ", ".join(f"{k}={v}" for k, v in key) or "-"
        for system, runs in sorted(systems.items()):
            expected = sum(r["expected"] for r in runs)
            delivered = sum(r["delivered"] for r in runs)
            lat = [x for r in runs for x in r["latencies"]]
            heals = [r["after_heal_s"] for r in runs if r["after_heal_s"] is not None]
            rows.append([label, system, f"{len(runs)}", fmt(100.0 * delivered / expected if expected else 0.0),
                         fmt(mean(lat) if lat else None, 2), fmt(_quantile(lat, 0.95), 2),
                         fmt(sum(r["frames"] for r in runs) / delivered if delivered else None, 1),
                         str(sum(r["duplicates"] for r in runs)),
                         fmt(mean(heals) if heals else None, 1) + (f" ({len(heals)}/{len(runs)})" if heals else "")])
    header = ["cell", "system", "runs", "delivered %", "latency mean s", "latency p95 s", "frames on air / delivery",
              "duplicate deliveries", "heal -> all delivered s"]
    return (f"## {name}\n\n"
            "delivered %: messages completely received by the subscribers over those expected, all seeds. "
            "Latency: publish to delivery per message. Frames on air: every frame every node sent (data, "
            "repairs, rebroadcasts, control), divided by the deliveries. Heal: from the scheduled heal to the "
            "last delivery, for runs where everything arrived.\n\n" + table(header, rows))


def load(results_dir: Path, scenario: str) -> list[dict]:
    out = []
    for path in sorted((results_dir / scenario).rglob("result.json")):
        with open(path) as f:
            out.append(json.load(f))
    return out
