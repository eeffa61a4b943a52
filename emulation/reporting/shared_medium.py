"""What only a real MAC shows: the same cells on dissem-emu and on EMANE's
RF Pipe model (every node a radio on one frequency, no carrier sense,
collisions from EMANE's PHY), ours and NORM in the same runs: time to full
delivery, bytes on the air and success per cell and system, side by side
(scripts/engine-agreement.sh writes it into docs/results/emane-shared-medium.md).
No target: the page shows where a real shared medium changes the picture.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from statistics import mean

from .engine_agreement import _diff, _engines, _num, _pct, _time
from .markdown import table
from .run_metrics import RunMetrics, load_runs

PAGE = "emane-shared-medium.md"
INDEX_LINE = f"- [{PAGE[:-3]}]({PAGE}): a real shared medium (EMANE's RF Pipe) beside dissem-emu's channel"
HIDDEN = ("window_s",)   # a cell parameter every compared cell shares


def _label(cell: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in sorted(cell.items()) if k not in HIDDEN)


def _by_cell(runs: list[RunMetrics]) -> dict[str, dict[str, list[RunMetrics]]]:
    out: dict[str, dict[str, list[RunMetrics]]] = defaultdict(lambda: defaultdict(list))
    for r in runs:
        out[_label(r.cell)][r.system].append(r)
    return out


def _success(runs: list[RunMetrics]) -> float | None:
    return mean(r.success_pct for r in runs) if runs else None


def _air(runs: list[RunMetrics]) -> float | None:
    return mean(r.bytes_on_air for r in runs) if runs else None


def section(title: str, emu_runs: list[RunMetrics], emane_runs: list[RunMetrics]) -> str:
    a, b = _by_cell(emu_runs), _by_cell(emane_runs)
    rows = []
    for cell in sorted(set(a) & set(b)):
        for system in sorted(set(a[cell]) & set(b[cell])):
            x, y = a[cell][system], b[cell][system]
            tx, ty, bx, by = _time(x), _time(y), _air(x), _air(y)
            rows.append([cell, system, _num(_success(x), 1), _num(_success(y), 1), _num(tx, 2), _num(ty, 2),
                         _pct(_diff(tx, ty)), _num(bx, 3, 1e6), _num(by, 3, 1e6), _pct(_diff(bx, by)),
                         f"{len(x)} / {len(y)}"])
    head = (f"## {title}\n\nEngines: {_engines(emu_runs)} ({len(emu_runs)} runs) and {_engines(emane_runs)} "
            f"({len(emane_runs)} runs, RF Pipe).\n")
    return head + "\n" + table(["cell", "system", "success % dissem-emu", "success % RF Pipe",
                                "time dissem-emu (s)", "time RF Pipe (s)", "Δ time", "MB dissem-emu",
                                "MB RF Pipe", "Δ bytes", "runs"], rows)


def page(pairs: list[tuple[str, Path, Path]]) -> str:
    out = ["# A real shared medium: EMANE's RF Pipe beside dissem-emu\n",
           "Each cell ran on dissem-emu and on EMANE with `--emane-model rfpipe`: every node a radio on one "
           "frequency at the cell's rate, sending one frame at a time with no carrier sense, so frames that "
           "overlap at a receiver interfere in EMANE's PHY (collisions and hidden terminals are EMANE's); each "
           "link's reliability is the path loss at which RF Pipe's reception curve receives with that "
           "probability when nothing else is on the air. dissem-emu's shared channel (`shared_channel_bps`) "
           "is a perfect scheduler instead: one FIFO that every transmission waits its turn on, no collisions. "
           "Where dissem-emu gives each node a radio of its own (`radio_bps`), the radios do not interfere "
           "there, and do on RF Pipe. Success: mean share of the messages each subscriber got; time: mean time "
           "to full delivery of the runs that completed; bytes: mean IP bytes every node put on the air "
           "(frames lost in collisions included).\n"]
    for title, emu_dir, emane_dir in pairs:
        out.append(section(title, load_runs(emu_dir), load_runs(emane_dir)))
    return "\n".join(out)


def write(pairs: list[tuple[str, Path, Path]], out: Path) -> Path:
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(page(pairs))
    index = out.parent / "README.md"
    if out.name == PAGE and index.is_file() and INDEX_LINE not in index.read_text():
        index.write_text(index.read_text().rstrip("\n") + "\n" + INDEX_LINE + "\n")
    return out
