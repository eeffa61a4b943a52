"""Issue 32, section 1 on both engines: baseline-1to10's own-radio cells
(profile `emane`: 256 and 1024 kbit/s, every link its own loss drawn per
seed in 5-40 %) run on dissem-emu and on EMANE's comm effect shim, seed by
seed in turn (scripts/engine-agreement.sh --only many-receivers). Per cell
and system: mean time to full delivery and bytes on the air on each engine
and their difference; then ours against the faster NORM variant (ACKs from
every receiver, or none) on each engine, with the issue's targets (time /
NORM <= 0.80, bytes / NORM <= 0.95 with radios of their own)."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from .engine_agreement import _bytes, _engines, _num, _pct, _time, compare
from .markdown import table
from .run_metrics import RunMetrics, load_runs

PAGE = "emane-1toN.md"
INDEX_LINE = f"- [{PAGE[:-3]}]({PAGE}): 1 sender to 10 receivers on dissem-emu and on EMANE, side by side"
OURS = "dissem"
NORMS = (("norm", "ACK"), ("norm-noack", "no ACK"))
TARGETS = (0.80, 0.95)  # time / NORM, bytes / NORM, own radios


def _cells(runs: list[RunMetrics]) -> dict[int, dict[str, list[RunMetrics]]]:
    out: dict[int, dict[str, list[RunMetrics]]] = defaultdict(lambda: defaultdict(list))
    for r in runs:
        if int(r.cell.get("shared_channel", 0)) == 0:
            out[int(r.cell["capacity_kbps"])][r.system].append(r)
    return out


def _best_norm(systems: dict[str, list[RunMetrics]]) -> tuple[str | None, float | None, float | None]:
    timed = [(t, label, _bytes(systems[name])) for name, label in NORMS
             if name in systems and (t := _time(systems[name])) is not None]
    if not timed:
        return None, None, None
    t, label, b = min(timed, key=lambda x: x[0])
    return label, t, b


def _ratio(a: float | None, b: float | None) -> float | None:
    return a / b if a is not None and b else None


def page(emu_runs: list[RunMetrics], emane_runs: list[RunMetrics]) -> str:
    rows = []
    for r in compare(emu_runs, emane_runs, cells=_cells)["rows"]:
        (ta, tb, dt), (ba, bb, db), (ca, na, cb, nb) = r["time"], r["bytes"], r["complete"]
        rows.append([str(r["cell"]), r["system"], _num(ta, 2), _num(tb, 2), _pct(dt), _num(ba, 3, 1e6),
                     _num(bb, 3, 1e6), _pct(db), f"{ca}/{na} / {cb}/{nb}"])
    a, b = _cells(emu_runs), _cells(emane_runs)
    verdicts = []
    for kbps in sorted(set(a) & set(b)):
        for name, engine in (("dissem-emu", a), ("EMANE", b)):
            if OURS not in engine[kbps]:
                continue
            label, t_norm, b_norm = _best_norm(engine[kbps])
            t_ratio = _ratio(_time(engine[kbps][OURS]), t_norm)
            b_ratio = _ratio(_bytes(engine[kbps][OURS]), b_norm)
            verdicts.append([str(kbps), name, label or "-", _num(t_ratio, 2), _num(b_ratio, 2),
                             "#N/A" if t_ratio is None else ("met" if t_ratio <= TARGETS[0] else "missed"),
                             "#N/A" if b_ratio is None else ("met" if b_ratio <= TARGETS[1] else "missed")])
    return "\n".join([
        "# emane-1toN: 1 sender to 10 receivers on dissem-emu and on EMANE\n",
        f"Engines: {_engines(emu_runs)} ({len(emu_runs)} runs) and {_engines(emane_runs)} ({len(emane_runs)} "
        "runs, comm effect shim, one emane per node). Scenario `baseline-1to10`, profile `emane` (radios of "
        "their own: a shared channel is not the shim's), seed by seed on both engines in turn "
        "(`scripts/engine-agreement.sh --only many-receivers`). Each link's loss is drawn per seed in 5-40 % "
        "on both engines from the same scenario; EMANE's loss draws per packet are its own. Times: mean time "
        "to full delivery of the runs that completed; bytes: mean IP bytes every node put on the air.\n",
        "## Time and bytes per cell and system\n",
        table(["kbit/s", "system", "time dissem-emu (s)", "time EMANE (s)", "Δ time", "MB dissem-emu", "MB EMANE",
               "Δ bytes", "complete (emu / EMANE)"], rows),
        "\n## Ours against the faster NORM, on each engine, with the issue's targets\n",
        table(["kbit/s", "engine", "NORM held to", "time / NORM", "bytes / NORM",
               f"time <= {TARGETS[0]}", f"bytes <= {TARGETS[1]}"], verdicts),
        "",
    ])


def write(emu_dir: Path, emane_dir: Path, out: Path) -> Path:
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(page(load_runs(emu_dir), load_runs(emane_dir)))
    index = out.parent / "README.md"
    if out.name == PAGE and index.is_file() and INDEX_LINE not in index.read_text():
        index.write_text(index.read_text().rstrip("\n") + "\n" + INDEX_LINE + "\n")
    return out
