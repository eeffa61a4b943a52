"""Tables 1 and 2: 800 KB from one sender to 1 or 3 receivers, every link the
same capacity and reliability. Cells are keyed (reliability_pct,
capacity_kbps), one table per channel variant: every node a radio of its own
(MANE's model, the paper's set-up) or one shared channel of the cell's
capacity. Three systems: ours (coded repairs), ours with coding off (plain
ARQ), and NRL NORM, all on the same links."""

from __future__ import annotations

from pathlib import Path

from . import plots, reference
from .aggregate import group
from .markdown import completed, fmt, ratio, table
from .run_metrics import RunMetrics

PARAMS = ("reliability_pct", "capacity_kbps")
OURS, ARQ, NORM = "dissem", "dissem-arq", "norm"
BYTES = 819_200


def channel_of(run: RunMetrics) -> int:
    return int(run.cell.get("shared_channel", 0) or 0)


def erasure_bound_s(reliability_pct, capacity_kbps) -> float | None:
    """k / (r C): the payload alone at the link rate, over the reliability."""
    r, c = float(reliability_pct) / 100.0, float(capacity_kbps) * 1024.0
    return BYTES * 8 / (r * c) if r > 0 and c > 0 else None


def _val(summary, attr):
    return getattr(summary, attr) if summary is not None else None


def _rows(cells: dict, paper: dict, shared: bool) -> list[list[str]]:
    rows = []
    # The paper's order: most reliable first, then fastest first.
    for key, systems in sorted(cells.items(), key=lambda kv: (-float(kv[0][0]), -float(kv[0][1]))):
        ours, arq, norm = systems.get(OURS), systems.get(ARQ), systems.get(NORM)
        pub = {} if shared else paper.get(tuple(int(k) for k in key), {})
        bound = erasure_bound_s(*key)
        t = {s: _val(systems.get(s), "delivery_time_s") for s in (OURS, ARQ, NORM)}
        b = {s: _val(systems.get(s), "bytes_on_air") for s in (OURS, ARQ, NORM)}
        rows.append([
            str(key[0]), str(key[1]),
            fmt(t[OURS]), fmt(t[ARQ]), fmt(t[NORM]), ratio(t[OURS], t[NORM]), ratio(t[ARQ], t[NORM]),
            fmt(bound), ratio(t[OURS], bound),
            fmt(b[OURS], 3, 1e6), fmt(b[ARQ], 3, 1e6), fmt(b[NORM], 3, 1e6), ratio(b[OURS], b[NORM]),
            ratio(b[ARQ], b[NORM]),
            fmt(pub.get("norm_time_s")), fmt(pub.get("norm_bytes"), 3, 1e6),
            fmt(pub.get("disservice_time_s")), fmt(pub.get("disservice_bytes"), 3, 1e6),
            f"{completed(ours)} / {completed(arq)} / {completed(norm)}",
        ])
    return rows


HEADER = ["rel %", "kbit/s", "ours s", "ARQ s", "NORM s", "ours/NORM", "ARQ/NORM", "bound s", "ours/bound",
          "ours MB", "ARQ MB", "NORM MB", "ours/NORM", "ARQ/NORM", "paper NORM s", "paper NORM MB", "paper DS s",
          "paper DS MB", "complete ours / ARQ / NORM"]


def section(name: str, runs: list[RunMetrics], receivers: int, reference_dir: Path, out_dir: Path) -> str:
    paper = reference.baseline(reference_dir, receivers)
    seeds = sorted({r.seed for r in runs})
    text = [f"## {name}: 1 sender to {receivers} receiver{'s' if receivers > 1 else ''}\n",
            f"{len(runs)} runs, seeds {seeds}. 'ours' is dissemd with its defaults (coded repairs); 'ARQ' the same "
            "daemon with `engine.coding=false` (plain fragment repairs); NORM is NRL NORM on the same links. Times: "
            "mean over receivers and seeds of the last message's completion after the first publish (completed runs "
            "only). 'bound' is the erasure bound k/(r C) of the payload alone. MB: IP bytes all nodes put on the "
            "emulated medium (10^6 bytes). 'complete' counts runs in which every receiver got everything.\n"]
    for channel in sorted({channel_of(r) for r in runs}):
        shared = channel != 0
        cells = group([r for r in runs if channel_of(r) == channel], PARAMS)
        title = ("One shared channel of the cell's capacity (every transmission takes turns; the paper's columns "
                 "do not apply)" if shared else "Every node a radio of its own (MANE's model, the paper's set-up)")
        text += [f"### {title}\n", table(HEADER, _rows(cells, paper, shared))]
        suffix = "-shared" if shared else ""
        for png in plots.baseline(name + suffix, cells, {} if shared else paper, out_dir):
            text.append(f"![{png.stem}]({png.name})\n")
    return "\n".join(text)
