"""Seed 000 (Mockets message replacement in JBI): position updates, sensor
data and images reflected to a disadvantaged client over a slow link
(experiments 1-3, scenario seed000-replacement) or over one whose capacity
dips (experiment 4, seed000-fluctuating). Per experiment, stream and system:
updates produced and received, how many sources' final updates arrived,
latency mean / median / 95th percentile / max beside the paper's figures;
the frames the link carried and dropped; latency over time and its ECDF."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from statistics import mean

from . import plots, reference
from .markdown import fmt, table

SCENARIO_PREFIX = "seed000"
# Table order; any other system follows in name order.
SYSTEMS = ("dissem-replace", "dissem-replace-source", "dissem", "tcp")
PAPER_SYSTEMS = {"mockets": "paper: Mockets (replacement)", "sctp": "paper: SCTP", "scps-tp": "paper: SCPS-TP"}
# The project's goals for dissem with replacement (not the paper's figures).
TARGETS_MS = {(1, "position"): 300.0, (4, "position"): 40.0}
TARGET_SYSTEM = "dissem-replace"


def is_seed000(scenario: str, cell: dict) -> bool:
    return scenario.startswith(SCENARIO_PREFIX) and "experiment" in cell


@dataclass
class StreamRun:
    produced: int = 0
    expected: int = 0
    received: int = 0
    final: int | None = None     # sources whose final update arrived
    sources: int | None = None
    latencies: list[float] = field(default_factory=list)
    produced_at: list[float] = field(default_factory=list)  # s after the publisher's start, same order


def _command_results(result: dict, role: str) -> list[tuple[int, dict]]:
    out = []
    for node in result.get("nodes", []):
        for proc in node.get("processes", []):
            if proc.get("kind") == "command" and proc.get("role") == role and isinstance(proc.get("result"), dict):
                out.append((node["id"], proc["result"]))
    return out


def _link(result: dict, sender_ids: set[int]) -> tuple[int, int]:
    """(frames delivered, frames dropped at the queue) on the publisher's links."""
    links = ((result.get("emulator") or {}).get("stats") or {}).get("links", [])
    mine = [l for l in links if l.get("from") in sender_ids]
    return sum(int(l.get("delivered", 0)) for l in mine), sum(int(l.get("queue_dropped", 0)) for l in mine)


def run_figures(result: dict) -> dict:
    publishers = _command_results(result, "publisher")
    subscribers = _command_results(result, "subscriber")
    start = min((float(r.get("start_unix") or 0) for _, r in publishers), default=0.0)
    streams: dict[str, StreamRun] = {}
    for _, pub in publishers:
        for name, s in (pub.get("streams") or {}).items():
            streams.setdefault(name, StreamRun()).produced += int(s.get("published", 0))
    for _, sub in subscribers:
        for name, s in (sub.get("streams") or {}).items():
            st = streams.setdefault(name, StreamRun())
            st.expected += int(s.get("expected") or 0)
            st.received += int(s.get("received", 0))
            if s.get("final_updates_received") is not None:
                st.final = (st.final or 0) + int(s["final_updates_received"])
                st.sources = (st.sources or 0) + int(s.get("sources") or 0)
        for m in sub.get("messages", []):
            st = streams.setdefault(m.get("stream", "?"), StreamRun())
            st.latencies.append(float(m["latency_s"]))
            st.produced_at.append(float(m["completed_unix"]) - float(m["latency_s"]) - start if start else 0.0)
    for st in streams.values():
        if not publishers:
            st.produced = st.expected  # the publisher printed nothing: what was planned
    cell = result.get("cell") or {}
    return {"experiment": int(cell.get("experiment", 0)), "system": result["system"], "seed": int(result["seed"]),
            "status": result.get("status"), "streams": streams,
            "link": _link(result, {node_id for node_id, _ in publishers} or {1})}


def load(results_dir: Path, scenarios: list[str]) -> list[dict]:
    out = []
    for scenario in scenarios:
        for path in sorted((results_dir / scenario).rglob("result.json")):
            with open(path) as f:
                out.append(run_figures(json.load(f)))
    return out


def quantile(values: list[float], q: float) -> float | None:
    """Nearest rank, as dissem-load's own summary (src/tools/load/reception_log)."""
    if not values:
        return None
    ordered = sorted(values)
    rank = min(len(ordered), max(1, math.ceil(q * len(ordered))))
    return ordered[rank - 1]


def system_order(systems) -> list[str]:
    return [s for s in SYSTEMS if s in systems] + sorted(s for s in systems if s not in SYSTEMS)


def stream_order(runs: list[dict]) -> list[str]:
    names: list[str] = []
    for r in runs:
        for name in r["streams"]:
            if name not in names:
                names.append(name)
    return names


def _row(stream: str, system: str, runs: list[dict], experiment: int) -> list[str]:
    per = [r["streams"][stream] for r in runs if stream in r["streams"]]
    lat = [x for s in per for x in s.latencies]
    produced = mean(s.produced for s in per) if per else 0.0
    received = mean(s.received for s in per) if per else 0.0
    finals = [s for s in per if s.final is not None]
    final = f"{mean(s.final for s in finals):.1f} / {mean(s.sources for s in finals):.0f}" if finals else "n/a"
    target = TARGETS_MS.get((experiment, stream)) if system == TARGET_SYSTEM else None
    avg = mean(lat) if lat else None
    verdict = "" if target is None else (" (met)" if avg is not None and avg * 1000 <= target else " (not met)")
    return [stream, system, str(len(runs)), fmt(produced, 0), fmt(received, 1),
            fmt(100 * received / produced if produced else None, 1), final,
            fmt(avg, 0, 1e-3), fmt(quantile(lat, 0.5), 0, 1e-3), fmt(quantile(lat, 0.95), 0, 1e-3),
            fmt(max(lat) if lat else None, 0, 1e-3), (fmt(target, 0) + verdict) if target else "", ""]


def _given(value, digits: int) -> str:
    """A figure the paper gives, or nothing where it gives none."""
    return "" if value is None else fmt(value, digits)


def _paper_rows(paper: list[dict], experiment: int, stream: str) -> list[list[str]]:
    rows = []
    for p in paper:
        if p["experiment"] != experiment or p["stream"] != stream:
            continue
        produced, delivered = p["messages_produced"], p["messages_delivered"]
        pct = 100 * delivered / produced if produced and delivered is not None else None
        rows.append([stream, PAPER_SYSTEMS.get(p["system"], "paper: " + p["system"]), "", _given(produced, 0),
                     _given(delivered, 0), _given(pct, 1), "", _given(p["mean_latency_ms"], 0), "", "", "", "",
                     p["note"]])
    return rows


HEADER = ["stream", "system", "runs", "produced", "received", "received %", "final updates / sources", "mean ms",
          "median ms", "p95 ms", "max ms", "target ms", "paper says"]


def _experiment_table(experiment: int, runs: list[dict], paper: list[dict]) -> str:
    by_system: dict[str, list[dict]] = {}
    for r in runs:
        by_system.setdefault(r["system"], []).append(r)
    rows = []
    for stream in stream_order(runs):
        rows += [_row(stream, s, by_system[s], experiment) for s in system_order(by_system)]
        rows += _paper_rows(paper, experiment, stream)
    link_rows = []
    for s in system_order(by_system):
        rs = by_system[s]
        link_rows.append([s, f"{sum(r['status'] == 'ok' for r in rs)}/{len(rs)}",
                          fmt(mean(r["link"][0] for r in rs), 0), fmt(mean(r["link"][1] for r in rs), 0)])
    return (table(HEADER, rows) + "\nThe server's link, mean per run:\n\n"
            + table(["system", "runs ok", "frames delivered to the client", "frames dropped at the 4-frame queue"],
                    link_rows))


def _images_note(runs: list[dict]) -> str:
    lines = []
    for s in system_order({r["system"] for r in runs}):
        counts = [(r["streams"]["image"].received, r["streams"]["image"].produced) for r in runs
                  if r["system"] == s and "image" in r["streams"]]
        if counts:
            every = all(got >= made > 0 for got, made in counts)
            lines.append(f"{s}: {', '.join(f'{g}/{m}' for g, m in counts)}{' (every image)' if every else ''}")
    return ("Images delivered per run (delivered/produced): " + "; ".join(lines) + ".\n") if lines else ""


INTRO = (
    "Seed 000 (Mockets message replacement in JBI): updates produced on the JBI server and received by a "
    "disadvantaged client behind a 5 KB/s link with a 4-frame queue (experiments 1-3), or a link of 40 KB/s "
    "that drops to 5 KB/s for 10 s a minute (experiment 4). Systems: **dissem-replace** (an update replaces the "
    "publisher's undelivered older ones of its type: one tag per stream, as the paper's tags), "
    "**dissem-replace-source** (one tag per source: a node's update replaces only its own), **dissem** (no "
    "replacement: every update delivered reliably, however late) and **tcp** (one reliable, ordered TCP "
    "connection, as the paper's SCTP and SCPS-TP). produced: updates the application produced (mean per run); "
    "received: updates that reached the client's application before it stopped, a few seconds after the last "
    "update was produced (6 s in experiments 1-3, 4 s in experiment 4: the scenarios' --linger; updates still "
    "queued then are not received: with TCP and without replacement that is most of them); final updates: "
    "sources whose last update arrived (with one tag per stream a source's last update is superseded by the "
    "next source's, so only the stream's very last one is owed). Latency: production to receipt, over the "
    "updates received, all seeds pooled (those never received are not in it, so without replacement the "
    "figures understate the delay). Targets are the project's goals for dissem-replace. The paper's rows are "
    "its published figures (paper/README.md).\n")


def section(results: list[dict], reference_dir: Path, out_dir: Path) -> str:
    paper = reference.seed000(reference_dir)
    seeds = sorted({r["seed"] for r in results})
    text = [f"## Seed 000: message replacement (Mockets in JBI)\n", f"{len(results)} runs, seeds {seeds}. " + INTRO]
    for experiment in sorted({r["experiment"] for r in results}):
        runs = [r for r in results if r["experiment"] == experiment]
        text.append(f"### Experiment {experiment}\n")
        text.append(_experiment_table(experiment, runs, paper))
        if experiment == 3:
            text.append(_images_note(runs))
        for png in plots.seed000(f"seed000-experiment-{experiment}", runs, system_order({r["system"] for r in runs}),
                                 out_dir):
            text.append(f"![{png.stem}]({png.name})\n")
    return "\n".join(text)
