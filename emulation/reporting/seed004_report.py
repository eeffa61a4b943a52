"""Seed 004 (FFI: middleware over HF radio and satcom): 134-byte tracks
offered above capacity; tracks per minute delivered at each receiver, per
link rate and system, beside the paper's UDP figures and the project's
targets (scenarios seed004-hf-2nodes, seed004-hf-3nodes, seed004-satcom)."""

from __future__ import annotations

from pathlib import Path
from statistics import mean

from . import seed_plots
from .markdown import fmt, table
from .seed_results import command_results, scenario_runs, verdict

SCENARIO_PREFIX = "seed004"
# The paper's tailored UDP service (seed 004, Tables 4 and 8; reference README section 6).
PAPER_UDP = {75: 0.93, 150: 1.6, 300: 4.6, 600: 13.0, 1200: 27.0, 2400: 55.0,
             9600: 430.0, 64000: 2900.0, 256000: 2900.0, 2000000: 2900.0}
PAPER_PACKED = {75: 2.0, 2400: 88.0}   # 11 tracks in one 1,474-byte datagram
# The project's goals for dissem (tracks/min at every receiver).
TARGETS = {2400: 120.0, 75: 3.5, 9600: 480.0}
TARGET_SYSTEM = "dissem"


def is_seed004(scenario: str) -> bool:
    return scenario.startswith(SCENARIO_PREFIX)


def _window(result: dict) -> tuple[float, float] | None:
    """(start, seconds) of the offer: the publisher's start and how long it offered."""
    for _, pub in command_results(result, "publisher"):
        start = pub.get("start_unix")
        if start is None:
            continue
        if pub.get("offer_for_s"):
            return float(start), float(pub["offer_for_s"])
        if pub.get("interval") and pub.get("messages_planned"):   # NORM: its planned enqueue span
            return float(start), float(pub["interval"]) * int(pub["messages_planned"])
    return None


def run_figures(result: dict) -> dict:
    """Tracks/min per receiver: tracks completed during the offer, per minute of it."""
    window = _window(result)
    per_receiver = {}
    for name, sub in command_results(result, "subscriber"):
        if window is None:
            continue
        start, span = window
        done = [float(m["completed_unix"]) for m in sub.get("messages", []) if "completed_unix" in m]
        per_receiver[name] = 60.0 * sum(start <= t <= start + span for t in done) / span
    cell = result.get("cell") or {}
    return {"scenario": result["scenario"], "rate_bps": int(cell.get("rate_bps", 0)), "system": result["system"],
            "seed": result["seed"], "status": result.get("status"), "offer_s": window[1] if window else None,
            "tracks_per_min": per_receiver}


def load(results_dir: Path, scenarios: list[str]) -> list[dict]:
    return [run_figures(r) for s in scenarios for r in scenario_runs(results_dir, s)]


def _rows(runs: list[dict]) -> list[list[str]]:
    rows = []
    for rate in sorted({r["rate_bps"] for r in runs}):
        for system in sorted({r["system"] for r in runs if r["rate_bps"] == rate}):
            mine = [r for r in runs if r["rate_bps"] == rate and r["system"] == system]
            receivers = sorted({n for r in mine for n in r["tracks_per_min"]})
            per = {n: mean(r["tracks_per_min"][n] for r in mine if n in r["tracks_per_min"]) for n in receivers}
            worst = min(per.values()) if per else None
            target = TARGETS.get(rate) if system == TARGET_SYSTEM else None
            rows.append([str(rate), system, f"{sum(r['status'] == 'ok' for r in mine)}/{len(mine)}",
                         fmt(mine[0]["offer_s"], 0) if mine[0]["offer_s"] else "n/a",
                         ", ".join(f"{n}: {fmt(v, 2)}" for n, v in per.items()) or "no result",
                         fmt(worst, 2), (f"≥ {target:g}: {verdict(worst, target, True)}" if target else ""),
                         fmt(PAPER_UDP.get(rate), 2) if rate in PAPER_UDP else "",
                         fmt(PAPER_PACKED.get(rate), 0) if rate in PAPER_PACKED else ""])
    return rows


HEADER = ["rate bit/s", "system", "runs ok", "offered for s", "tracks/min per receiver", "worst receiver",
          "target (dissem)", "paper: UDP, 1 track/datagram", "paper: UDP, 11 tracks/datagram"]

INTRO = (
    "Seed 004 (FFI, middleware over HF radio and satcom): 134-byte track reports offered at three times what "
    "the link carries (as raw payloads), for the time given; tracks/min = tracks each receiver's application "
    "completed while the load was offered, per minute of it (tracks still queued when the offer ended are not "
    "counted). HF: a simplex channel (one transmitter at a time, a node on the air hears nothing, 1 s turnaround "
    "assumed). Satcom: full duplex, 300 ms one way. dissem runs with only engine.link_capacity_bps set; NORM with "
    "one object per track at 0.95 x the rate. A cell where NORM delivered nothing shows 0.00: NORM could not run "
    "there. Targets are the project's goals for dissem, judged on the worst receiver; the paper's figures are its "
    "tailored UDP service's (Tables 4 and 8).\n")


def section(runs: list[dict], out_dir: Path) -> str:
    text = ["## Seed 004: tracks over HF and satcom\n", INTRO]
    for scenario in sorted({r["scenario"] for r in runs}):
        mine = [r for r in runs if r["scenario"] == scenario]
        text.append(f"### {scenario}\n")
        text.append(table(HEADER, _rows(mine)))
        for png in seed_plots.tracks_per_minute(scenario, mine, PAPER_UDP, out_dir):
            text.append(f"![{png.stem}]({png.name})\n")
    return "\n".join(text)
