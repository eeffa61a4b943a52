"""Tables 1 and 2: 800 KB from one sender to 1 or 3 receivers, every link the
same capacity and reliability. Cells are keyed (reliability_pct, capacity_kbps)."""

from __future__ import annotations

from pathlib import Path

from . import plots, reference
from .aggregate import group
from .markdown import completed, fmt, ratio, table
from .run_metrics import RunMetrics

PARAMS = ("reliability_pct", "capacity_kbps")
OURS, NORM = "dissem", "norm"


def section(name: str, runs: list[RunMetrics], receivers: int, reference_dir: Path, out_dir: Path) -> str:
    cells = group(runs, PARAMS)
    paper = reference.baseline(reference_dir, receivers)
    rows = []
    # The paper's order: most reliable first, then fastest first.
    for key, systems in sorted(cells.items(), key=lambda kv: (-float(kv[0][0]), -float(kv[0][1]))):
        ours, norm = systems.get(OURS), systems.get(NORM)
        pub = paper.get(tuple(int(k) for k in key), {})
        rows.append([
            str(key[0]), str(key[1]),
            fmt(ours and ours.delivery_time_s), fmt(norm and norm.delivery_time_s),
            ratio(ours and ours.delivery_time_s, norm and norm.delivery_time_s),
            fmt(ours and ours.bytes_on_air, 3, 1e6), fmt(norm and norm.bytes_on_air, 3, 1e6),
            ratio(ours and ours.bytes_on_air, norm and norm.bytes_on_air),
            fmt(pub.get("norm_time_s")), fmt(pub.get("norm_bytes"), 3, 1e6),
            fmt(pub.get("disservice_time_s")), fmt(pub.get("disservice_bytes"), 3, 1e6),
            f"{completed(ours)} / {completed(norm)}",
        ])
    header = ["rel %", "kbit/s", "ours s", "NORM s", "ours/NORM", "ours MB", "NORM MB", "ours/NORM",
              "paper NORM s", "paper NORM MB", "paper DS s", "paper DS MB", "complete ours / NORM"]
    seeds = sorted({r.seed for r in runs})
    text = [f"## {name}: 1 sender to {receivers} receiver{'s' if receivers > 1 else ''}\n",
            f"{len(runs)} runs, seeds {seeds}. Times: mean over receivers and seeds of the last message's completion "
            "after the first publish (completed runs only). MB: IP bytes all nodes put on the emulated medium "
            "(10^6 bytes). 'complete' counts runs in which every receiver got everything.\n",
            table(header, rows)]
    for png in plots.baseline(name, cells, paper, out_dir):
        text.append(f"![{png.stem}]({png.name})\n")
    return "\n".join(text)
