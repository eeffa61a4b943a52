"""Runs of one cell and system, over seeds, reduced to the figures a report
prints: means, the spread between seeds, and how many runs completed."""

from __future__ import annotations

from dataclasses import dataclass
from statistics import mean, stdev

from .run_metrics import RunMetrics


@dataclass
class CellSummary:
    system: str
    runs: int
    completed: int
    seeds: list[int]
    delivery_time_s: float | None
    delivery_time_sd: float | None
    bytes_on_air: float
    bytes_on_air_completed: float | None  # mean over the runs that completed
    messages_sent: float
    received_mean: float
    success_pct: float
    sender_overhead_per_msg: float
    p2p_overhead_per_msg: float
    latencies_s: list[float]


def _mean_sd(values: list[float]) -> tuple[float | None, float | None]:
    if not values:
        return None, None
    return mean(values), (stdev(values) if len(values) > 1 else 0.0)


def summarise(runs: list[RunMetrics]) -> CellSummary:
    """`runs` share scenario, cell and system. Delivery time averages only the
    runs that completed (an incomplete run has no delivery time)."""
    times = [r.delivery_time_s for r in runs if r.complete and r.delivery_time_s is not None]
    t, sd = _mean_sd(times)
    return CellSummary(
        system=runs[0].system, runs=len(runs), completed=sum(r.complete for r in runs),
        seeds=sorted(r.seed for r in runs), delivery_time_s=t, delivery_time_sd=sd,
        bytes_on_air=mean(r.bytes_on_air for r in runs),
        bytes_on_air_completed=_mean_sd([float(r.bytes_on_air) for r in runs if r.complete])[0],
        messages_sent=mean(r.messages_sent for r in runs),
        received_mean=mean(r.received_mean for r in runs), success_pct=mean(r.success_pct for r in runs),
        sender_overhead_per_msg=mean(r.sender_overhead_per_msg for r in runs),
        p2p_overhead_per_msg=mean(r.p2p_overhead_per_msg for r in runs),
        latencies_s=[x for r in runs for x in r.latencies_s])


def cell_key(run: RunMetrics, params: tuple[str, ...]) -> tuple:
    return tuple(run.cell.get(p) for p in params)


def group(runs: list[RunMetrics], params: tuple[str, ...]) -> dict[tuple, dict[str, CellSummary]]:
    """cell key -> system -> summary, for the runs of one scenario."""
    buckets: dict[tuple, dict[str, list[RunMetrics]]] = {}
    for r in runs:
        buckets.setdefault(cell_key(r, params), {}).setdefault(r.system, []).append(r)
    return {k: {s: summarise(v) for s, v in systems.items()} for k, systems in sorted(buckets.items(), key=_order)}


def _order(item) -> tuple:
    # Numbers in numeric order, then text: 56 < 256 < 10240 kbit/s.
    return tuple((0, float(x), "") if isinstance(x, (int, float)) else (1, 0.0, str(x)) for x in item[0])
