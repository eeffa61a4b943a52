"""Tables 1 and 2: 800 KB from one sender to 1 or 3 receivers, every link the
same capacity and reliability. Cells are keyed (reliability_pct,
capacity_kbps), with a time table and a bytes table per channel variant:
every node a radio of its own (MANE's model, the paper's set-up) or one
shared channel of the cell's capacity. The paper's four systems on the same
links: ours (coded repairs; and with coding off, plain ARQ), NRL NORM,
OpenPGM and JGroups, beside the paper's published figures for NORM,
DisService, OpenPGM and JGroups.

As in the paper, a system that did not finish within the run's time limit
shows #N/A; a system not run in a cell shows '-'."""

from __future__ import annotations

from pathlib import Path

from . import plots, reference
from .aggregate import CellSummary, group
from .markdown import fmt, ratio, table
from .run_metrics import RunMetrics

PARAMS = ("reliability_pct", "capacity_kbps")
OURS, ARQ, NORM, PGM, JGROUPS = "dissem", "dissem-arq", "norm", "pgm", "jgroups"
# (system in our campaigns, column label), in column order.
SYSTEMS = ((OURS, "ours"), (ARQ, "ARQ"), (NORM, "NORM"), (PGM, "OpenPGM"), (JGROUPS, "JGroups"))
# (prefix in ../shared/reference/paper-baseline-1toN.csv, column label).
PAPER_SYSTEMS = (("norm", "NORM"), ("disservice", "DS"), ("openpgm", "OpenPGM"), ("jgroups", "JGroups"))
BYTES = 819_200
NA = "#N/A"


def channel_of(run: RunMetrics) -> int:
    return int(run.cell.get("shared_channel", 0) or 0)


def erasure_bound_s(reliability_pct, capacity_kbps) -> float | None:
    """k / (r C): the payload alone at the link rate, over the reliability."""
    r, c = float(reliability_pct) / 100.0, float(capacity_kbps) * 1024.0
    return BYTES * 8 / (r * c) if r > 0 and c > 0 else None


def _time(summary: CellSummary | None) -> float | None:
    return summary.delivery_time_s if summary is not None else None


def _bytes(summary: CellSummary | None) -> float | None:
    return summary.bytes_on_air_completed if summary is not None else None


def _ours(summary: CellSummary | None, value: float | None, digits: int = 1, scale: float = 1.0) -> str:
    """One of our measurements: '-' when the system was not run here, #N/A
    when none of its runs finished in time."""
    if summary is None:
        return "-"
    return NA if value is None else fmt(value, digits, scale)


def _paper(row: dict | None, key: str, digits: int = 1, scale: float = 1.0) -> str:
    """The paper's figure: n/a where its table has no such cell (or the
    shared channel, which it never measured), #N/A where it printed #N/A."""
    if row is None:
        return "n/a"
    value = row.get(key)
    return NA if value is None else fmt(value, digits, scale)


def _completed(summary: CellSummary | None) -> str:
    return f"{summary.completed}/{summary.runs}" if summary else "-"


def _ordered(cells: dict) -> list:
    # The paper's order: most reliable first, then fastest first.
    return sorted(cells.items(), key=lambda kv: (-float(kv[0][0]), -float(kv[0][1])))


def _paper_row(paper: dict, key: tuple, shared: bool) -> dict | None:
    if shared:
        return None
    return paper.get(tuple(int(k) for k in key))


def _time_rows(cells: dict, paper: dict, shared: bool) -> list[list[str]]:
    rows = []
    for key, systems in _ordered(cells):
        pub = _paper_row(paper, key, shared)
        bound = erasure_bound_s(*key)
        t = {s: _time(systems.get(s)) for s, _ in SYSTEMS}
        rows.append([str(key[0]), str(key[1])]
                    + [_ours(systems.get(s), t[s]) for s, _ in SYSTEMS]
                    + [ratio(t[OURS], t[NORM]), fmt(bound), ratio(t[OURS], bound)]
                    + [_paper(pub, f"{p}_time_s") for p, _ in PAPER_SYSTEMS])
    return rows


def _bytes_rows(cells: dict, paper: dict, shared: bool) -> list[list[str]]:
    rows = []
    for key, systems in _ordered(cells):
        pub = _paper_row(paper, key, shared)
        b = {s: _bytes(systems.get(s)) for s, _ in SYSTEMS}
        rows.append([str(key[0]), str(key[1])]
                    + [_ours(systems.get(s), b[s], 3, 1e6) for s, _ in SYSTEMS]
                    + [ratio(b[OURS], b[NORM])]
                    + [_paper(pub, f"{p}_bytes", 3, 1e6) for p, _ in PAPER_SYSTEMS]
                    + [" / ".join(_completed(systems.get(s)) for s, _ in SYSTEMS)])
    return rows


TIME_HEADER = (["rel %", "kbit/s"] + [f"{label} s" for _, label in SYSTEMS] + ["ours/NORM", "bound s", "ours/bound"]
               + [f"paper {label} s" for _, label in PAPER_SYSTEMS])
BYTES_HEADER = (["rel %", "kbit/s"] + [f"{label} MB" for _, label in SYSTEMS] + ["ours/NORM"]
                + [f"paper {label} MB" for _, label in PAPER_SYSTEMS]
                + ["complete " + " / ".join(label for _, label in SYSTEMS)])


def _time_limits(runs: list[RunMetrics]) -> str:
    limits = sorted({float(r.time_limit_s) for r in runs if r.time_limit_s})
    if not limits:
        return ""
    span = f"{limits[0]:.0f} s" if len(limits) == 1 else f"{limits[0]:.0f} s to {limits[-1]:.0f} s"
    return (f" {NA} (as in the paper): no run of that system finished within the run's time limit, 60 s plus ten "
            f"times the payload's own time at the link rate ({span} in these cells); '-': not run in that cell.")


def _radio_drops(runs: list[RunMetrics]) -> str:
    """Mean frames per run that a system handed to a radio whose queue was
    full: counted in MB (handed to the medium) but never on the air."""
    parts = []
    for system, label in SYSTEMS:
        mine = [r.radio_dropped for r in runs if r.system == system]
        if mine:
            parts.append(f"{label} {sum(mine) / len(mine):,.0f}")
    return ("MB counts what each node handed to its radio; frames its own radio queue then dropped (the queue "
            "holds 50 frames) never reached the air. Such frames per run, mean over all cells: " + ", ".join(parts)
            + ".") if parts else ""


def section(name: str, runs: list[RunMetrics], receivers: int, reference_dir: Path, out_dir: Path) -> str:
    paper = reference.baseline(reference_dir, receivers)
    seeds = sorted({r.seed for r in runs})
    systems = [label for s, label in SYSTEMS if any(r.system == s for r in runs)]
    text = [f"## {name}: 1 sender to {receivers} receiver{'s' if receivers > 1 else ''}\n",
            f"{len(runs)} runs, seeds {seeds}, systems: {', '.join(systems)}. 'ours' is dissemd with its defaults "
            "(coded repairs); 'ARQ' the same daemon with `engine.coding=false` (plain fragment repairs); NORM, "
            "OpenPGM and JGroups are the paper's other systems on the same links (set-ups in "
            "emulation/baselines/*/README.md). Times: mean over receivers and seeds of the last message's "
            "completion after the first publish (completed runs only). 'bound' is the erasure bound k/(r C) of "
            "the payload alone. MB: IP bytes all nodes put on the emulated medium (10^6 bytes), mean over "
            "completed runs. 'complete' counts runs in which every receiver got everything." + _time_limits(runs)
            + " " + _radio_drops(runs) + "\n"]
    for channel in sorted({channel_of(r) for r in runs}):
        shared = channel != 0
        cells = group([r for r in runs if channel_of(r) == channel], PARAMS)
        title = ("One shared channel of the cell's capacity (every transmission takes turns; the paper's columns "
                 "do not apply)" if shared else "Every node a radio of its own (MANE's model, the paper's set-up)")
        text += [f"### {title}\n", "Delivery time (s):\n", table(TIME_HEADER, _time_rows(cells, paper, shared)),
                 "Bytes on the air (MB) and completed runs:\n", table(BYTES_HEADER, _bytes_rows(cells, paper, shared))]
        suffix = "-shared" if shared else ""
        for png in plots.baseline(name + suffix, cells, {} if shared else paper, out_dir):
            text.append(f"![{png.stem}]({png.name})\n")
    return "\n".join(text)
