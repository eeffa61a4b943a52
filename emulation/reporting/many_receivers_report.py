"""Issue 32, section 1: one sender, many receivers (baseline-1to10,
baseline-1to20). 819,200 bytes over a full mesh in which every link draws
its own loss per seed (5-40 %), at 256 kbit/s and 1 Mbit/s, every node a
radio of its own or one shared channel. Ours, ARQ and NRL NORM in the same
runs; NORM twice, with positive ACKs from every receiver and without, and
the faster of the two (by mean time over the seeds) is the one we are held
to, named in each row. The targets are the issue's, means over the seeds:
time / NORM <= 0.80 and bytes / NORM <= 0.95 with radios of their own,
<= 0.95 and <= 1.00 on one shared channel."""

from __future__ import annotations

import re
from pathlib import Path

from .aggregate import CellSummary, group
from .markdown import fmt, ratio, table
from .run_metrics import RunMetrics, load_runs

SCENARIO_PREFIX = "baseline-1toN"
PARAMS = ("capacity_kbps", "shared_channel")
OURS, ARQ, NORM_ACK, NORM_NOACK = "dissem", "dissem-arq", "norm", "norm-noack"
NORMS = ((NORM_ACK, "ACK"), (NORM_NOACK, "no ACK"))
# (time / NORM, bytes / NORM) at most, by channel variant (0: own radios, 1: shared).
TARGETS = {0: (0.80, 0.95), 1: (0.95, 1.00)}
NA = "#N/A"


def is_many_receivers(scenario: str) -> bool:
    match = re.fullmatch(r"baseline-1to(\d+)", scenario)
    return match is not None and int(match.group(1)) > 3


def load(results_dir: Path, scenarios: list[str]) -> list[RunMetrics]:
    return [r for r in load_runs(results_dir) if r.scenario in scenarios]


def _time(s: CellSummary | None) -> float | None:
    return s.delivery_time_s if s is not None else None


def _bytes(s: CellSummary | None) -> float | None:
    return s.bytes_on_air_completed if s is not None else None


def _shown(s: CellSummary | None, value: float | None, digits: int, scale: float = 1.0) -> str:
    if s is None:
        return "-"
    return NA if value is None else fmt(value, digits, scale)


def best_norm(systems: dict[str, CellSummary]) -> tuple[str | None, CellSummary | None]:
    """The NORM variant with the shorter mean time (a finished one beats one that never finished)."""
    timed = [(s.delivery_time_s, label, s) for name, label in NORMS
             if (s := systems.get(name)) is not None and s.delivery_time_s is not None]
    if not timed:
        return None, None
    _, label, summary = min(timed, key=lambda t: t[0])
    return label, summary


def _verdict(value: float | None, target: float) -> str:
    if value is None:
        return "n/a"
    return "met" if value <= target else "not met"


def _drops(runs: list[RunMetrics], cell: tuple, system: str) -> str:
    """Frames per run that the system's nodes handed to a radio whose queue was full (mean)."""
    mine = [r.radio_dropped for r in runs if r.system == system and tuple(r.cell.get(p) for p in PARAMS) == cell]
    return f"{sum(mine) / len(mine):,.0f}" if mine else "-"


def _rows(cells: dict, channel: int, runs: list[RunMetrics]) -> list[list[str]]:
    rows = []
    time_target, bytes_target = TARGETS[channel]
    for key, systems in cells.items():
        label, norm = best_norm(systems)
        ours = systems.get(OURS)
        t_ratio = _time(ours) / _time(norm) if _time(ours) is not None and _time(norm) else None
        b_ratio = _bytes(ours) / _bytes(norm) if _bytes(ours) is not None and _bytes(norm) else None
        rows.append([str(key[0])]
                    + [_shown(systems.get(s), _time(systems.get(s)), 1) for s in (OURS, ARQ, NORM_ACK, NORM_NOACK)]
                    + [label or "n/a", ratio(_time(ours), _time(norm)),
                       f"{_verdict(t_ratio, time_target)} (<= {time_target:.2f})"]
                    + [_shown(systems.get(s), _bytes(systems.get(s)), 3, 1e6) for s in (OURS, ARQ)]
                    + [_shown(norm, _bytes(norm), 3, 1e6), ratio(_bytes(ours), _bytes(norm)),
                       f"{_verdict(b_ratio, bytes_target)} (<= {bytes_target:.2f})"]
                    + [" / ".join(f"{s.completed}/{s.runs}" if (s := systems.get(n)) else "-"
                                  for n in (OURS, ARQ, NORM_ACK, NORM_NOACK))]
                    + [f"{_drops(runs, key, OURS)} / {_drops(runs, key, NORM_ACK if label == 'ACK' else NORM_NOACK)}"])
    return rows


HEADER = (["kbit/s", "ours s", "ARQ s", "NORM ACK s", "NORM no-ACK s", "NORM held to", "ours/NORM time",
           "time target", "ours MB", "ARQ MB", "NORM MB", "ours/NORM bytes", "bytes target",
           "complete ours / ARQ / NORM ACK / no-ACK", "radio-queue drops per run ours / NORM"])


def _channel(run: RunMetrics) -> int:
    return int(run.cell.get("shared_channel", 0) or 0)


def section(runs: list[RunMetrics], _out_dir: Path) -> str:
    """The page's text (it has no plots)."""
    seeds = sorted({r.seed for r in runs})
    text = [__doc__.split("\n\n")[0].replace("\n", " ") + "\n",
            f"{len(runs)} runs, seeds {seeds}. Times: mean over receivers and seeds of the message's completion "
            "after the publish (completed runs only). MB: IP bytes all nodes put on the emulated medium "
            "(10^6 bytes), mean over completed runs. 'NORM held to': the NORM variant with the shorter mean "
            "time in that cell, against which both ratios are taken. Targets are the issue's (means over the "
            "seeds). Radio-queue drops: frames a system's nodes handed to a radio whose queue (50 frames) was "
            "full, counted in MB but never on the air. #N/A: no run of that system finished within the time limit; '-': not run.\n"]
    for scenario in sorted({r.scenario for r in runs}, key=lambda s: int(s.rsplit("to", 1)[1])):
        mine = [r for r in runs if r.scenario == scenario]
        receivers = max(r.subscribers for r in mine)
        for channel in sorted({_channel(r) for r in mine}):
            cells = group([r for r in mine if _channel(r) == channel], PARAMS)
            title = "one shared channel of the cell's capacity" if channel else "every node a radio of its own"
            text += [f"## {scenario}: 1 sender to {receivers} receivers, {title}\n",
                     table(HEADER, _rows(cells, channel, [r for r in mine if _channel(r) == channel]))]
    return "\n".join(text)
