"""Do the engines agree? The same baseline cells run on dissem-emu and on
EMANE (comm effect shim), set side by side: each system's mean time to full
delivery and bytes on the air per cell, their difference across engines,
and ours/NORM on each engine (scripts/engine-agreement.sh writes
docs/results/emane.md with it).

Targets (issue 30): times and bytes of each system within +-5 % across
engines, cell by cell; ours/NORM within +-0.03.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from statistics import mean

from .markdown import table
from .run_metrics import RunMetrics, load_runs

PAGE = "emane.md"
INDEX_LINE = f"- [{PAGE[:-3]}]({PAGE}): the same baseline cells on dissem-emu and on EMANE, side by side"
TIME_BYTES_TOLERANCE = 0.05
RATIO_TOLERANCE = 0.03
OURS, NORM = "dissem", "norm"


def _cells(runs: list[RunMetrics]) -> dict[tuple, dict[str, list[RunMetrics]]]:
    out: dict[tuple, dict[str, list[RunMetrics]]] = defaultdict(lambda: defaultdict(list))
    for r in runs:
        out[(int(r.cell["capacity_kbps"]), int(r.cell["reliability_pct"]))][r.system].append(r)
    return out


def _time(runs: list[RunMetrics]) -> float | None:
    done = [r.delivery_time_s for r in runs if r.complete and r.delivery_time_s is not None]
    return mean(done) if done else None


def _bytes(runs: list[RunMetrics]) -> float | None:
    done = [r.bytes_on_air for r in runs if r.complete]
    return mean(done) if done else None


def _diff(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None or a == 0 else (b - a) / a


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:+.1f} %"


def _num(x: float | None, digits: int, scale: float = 1.0) -> str:
    return "n/a" if x is None else f"{x / scale:.{digits}f}"


def _engines(runs: list[RunMetrics]) -> str:
    return ", ".join(sorted({r.engine for r in runs})) or "none"


def compare(emu_runs: list[RunMetrics], emane_runs: list[RunMetrics], cells=None) -> dict:
    """Per (cell, system): figures on both engines and whether they agree.
    `cells` groups runs by cell and system (default: capacity and reliability)."""
    cells = cells or _cells
    a, b = cells(emu_runs), cells(emane_runs)
    rows, ratios = [], []
    for cell in sorted(set(a) & set(b)):
        for system in sorted(set(a[cell]) & set(b[cell])):
            ta, tb = _time(a[cell][system]), _time(b[cell][system])
            ba, bb = _bytes(a[cell][system]), _bytes(b[cell][system])
            dt, db = _diff(ta, tb), _diff(ba, bb)
            ok = dt is not None and db is not None and abs(dt) <= TIME_BYTES_TOLERANCE and abs(db) <= TIME_BYTES_TOLERANCE
            rows.append({"cell": cell, "system": system, "time": (ta, tb, dt), "bytes": (ba, bb, db),
                         "complete": (sum(r.complete for r in a[cell][system]), len(a[cell][system]),
                                      sum(r.complete for r in b[cell][system]), len(b[cell][system])),
                         "agree": ok})
        if {OURS, NORM} <= set(a[cell]) & set(b[cell]):
            pair = []
            for engine in (a, b):
                t_ours, t_norm = _time(engine[cell][OURS]), _time(engine[cell][NORM])
                pair.append(t_ours / t_norm if t_ours and t_norm else None)
            gap = None if None in pair else pair[1] - pair[0]
            ratios.append({"cell": cell, "emu": pair[0], "emane": pair[1], "gap": gap,
                           "agree": gap is not None and abs(gap) <= RATIO_TOLERANCE})
    return {"rows": rows, "ratios": ratios}


def page(emu_runs: list[RunMetrics], emane_runs: list[RunMetrics], c: dict) -> str:
    """The page's tables from both engines' runs and their comparison (compare())."""
    rows, ratios = c["rows"], c["ratios"]
    agree = sum(r["agree"] for r in rows)
    ratio_agree = sum(r["agree"] for r in ratios)
    out = ["# Engines: dissem-emu and EMANE on the same cells\n",
           f"Engines: {_engines(emu_runs)} ({len(emu_runs)} runs) and {_engines(emane_runs)} "
           f"({len(emane_runs)} runs, comm effect shim, one emane per node). Scenario `baseline-1to3`, profile "
           "`agreement`, dissemd and NORM, seed by seed on both engines in turn "
           "(`scripts/engine-agreement.sh`). Times: mean time to full delivery of the runs that completed; "
           "bytes: mean IP bytes every node put on the air (dissem-emu's counters; EMANE's shim counters "
           "read over its control port).\n",
           f"Targets: each system's time and bytes within ±{100 * TIME_BYTES_TOLERANCE:.0f} % across engines, "
           f"cell by cell; ours/NORM within ±{RATIO_TOLERANCE}. **{agree} of {len(rows)}** (cell, system) pairs "
           f"within ±{100 * TIME_BYTES_TOLERANCE:.0f} % on both; **{ratio_agree} of {len(ratios)}** cells' "
           f"ours/NORM within ±{RATIO_TOLERANCE}.\n",
           "## Time and bytes per cell and system\n"]
    body = []
    for r in rows:
        (kbps, rel), (ta, tb, dt), (ba, bb, db) = r["cell"], r["time"], r["bytes"]
        ca, na, cb, nb = r["complete"]
        body.append([str(kbps), str(rel), r["system"], _num(ta, 2), _num(tb, 2), _pct(dt), _num(ba, 3, 1e6),
                     _num(bb, 3, 1e6), _pct(db), f"{ca}/{na} / {cb}/{nb}", "yes" if r["agree"] else "**no**"])
    out.append(table(["kbit/s", "reliability %", "system", "time dissem-emu (s)", "time EMANE (s)", "Δ time",
                      "MB dissem-emu", "MB EMANE", "Δ bytes", "complete (emu / EMANE)", "within ±5 %"], body))
    out.append("\n## ours/NORM (time) on each engine\n")
    body = [[str(r["cell"][0]), str(r["cell"][1]), _num(r["emu"], 3), _num(r["emane"], 3),
             "n/a" if r["gap"] is None else f"{r['gap']:+.3f}", "yes" if r["agree"] else "**no**"] for r in ratios]
    out.append(table(["kbit/s", "reliability %", "dissem-emu", "EMANE", "Δ", f"within ±{RATIO_TOLERANCE}"], body))
    out.append("\n## How the model maps\n\n"
               "Per (transmitter, receiver), EMANE's comm effect shim applies the EEL's loss, latency, jitter and "
               "rate at the receiver; each node's radio rate is folded into its links (the shim serialises a "
               "source's packets at the receiver, lost ones included, as a radio does before the loss draw), and "
               "the radio's 50-frame queue becomes the shim's receive-buffer period (emulation/README.md, "
               "*Engines*). Loss draws are independent per packet on both; EMANE's are not seeded by the run's "
               "seed, so each engine's seeds are different draws of the same model.\n")
    return "\n".join(out)


def before_section(before_dir: Path, emane_runs: list[RunMetrics], now: dict) -> str:
    """dissem-emu's runs from before a correction the agreement led to, set
    beside today's comparison (`now`, compare()) and EMANE's: how far each was
    from EMANE, per cell and system, and ours/NORM on all three."""
    before_runs = load_runs(before_dir)
    before = compare(before_runs, emane_runs)
    now_rows = {(r["cell"], r["system"]): r for r in now["rows"]}
    now_ratios = {r["cell"]: r for r in now["ratios"]}
    body = []
    for r in before["rows"]:
        n = now_rows.get((r["cell"], r["system"]))
        (kbps, rel), (tb, te, dt_before) = r["cell"], r["time"]
        body.append([str(kbps), str(rel), r["system"], _num(tb, 2), _num(n["time"][0], 2) if n else "n/a",
                     _num(te, 2), _pct(dt_before), _pct(n["time"][2]) if n else "n/a"])
    ratio_body = []
    for r in before["ratios"]:
        n = now_ratios.get(r["cell"])
        ratio_body.append([str(r["cell"][0]), str(r["cell"][1]), _num(r["emu"], 3), _num(n["emu"], 3) if n else "n/a",
                           _num(r["emane"], 3), "n/a" if r["gap"] is None else f"{r['gap']:+.3f}",
                           "n/a" if not n or n["gap"] is None else f"{n['gap']:+.3f}"])
    return ("\n## What the agreement corrected in dissem-emu\n\n"
            f"dissem-emu before the correction ({_engines(before_runs)}, {len(before_runs)} runs in "
            f"`{before_dir.name}`) beside dissem-emu now and EMANE. Until 2026-11-28 dissem-emu serialised "
            "a frame twice when a node had both a radio rate and a link rate: once through the radio, then "
            "again through the link, store-and-forward, so every frame arrived one frame time late (a "
            "1442-byte frame at 256 kbit/s: 45 ms more). Rates were right (the two stages pipeline), "
            "latency was not, and the late arrivals lengthened every repair round's wait. EMANE's shim "
            "serialises once at min(radio, link); dissem-emu's link is now cut-through behind the radio "
            "(emulation/emu/README.md, step 3). Δ: EMANE against dissem-emu, as above.\n\n" +
            table(["kbit/s", "reliability %", "system", "time before (s)", "time now (s)", "time EMANE (s)",
                   "Δ before", "Δ now"], body) + "\n\n" +
            table(["kbit/s", "reliability %", "ours/NORM before", "ours/NORM now", "ours/NORM EMANE",
                   "Δ before", "Δ now"], ratio_body) + "\n")


def cost_section(results: Path) -> str:
    """What EMANE's own processes cost per run (from each run's
    emulator-stats: start-up, CPU seconds, peak resident memory)."""
    import json
    rows = []
    for path in sorted(results.rglob("result.json")):
        r = json.loads(path.read_text())
        run = ((r.get("emulator") or {}).get("stats") or {}).get("run") or {}
        cost = run.get("engine_cost")
        if not cost:
            continue
        nodes = len(r.get("nodes") or [])
        duration = float(run.get("duration_s") or 0)
        hosts = ((r.get("emulator") or {}).get("ready") or {}).get("hosts")
        rows.append([r["scenario"], r["system"], str(r["seed"]), str(nodes), str(len(hosts)) if hosts else "per node",
                     str(cost["processes"]), f"{cost['startup_s']:.1f}", f"{duration:.1f}", f"{cost['cpu_s']:.1f}",
                     f"{100 * cost['cpu_s'] / duration:.0f} %" if duration else "n/a",
                     f"{cost['peak_rss_bytes'] / 2**20:.0f}",
                     f"{cost['peak_rss_bytes'] / 2**20 / max(1, cost['processes'] - 1):.1f}", r["status"]])
    if not rows:
        return ""
    return ("\n## What EMANE costs\n\nEMANE's own processes (every `emane` and the event service), read "
            "before they stop: start-up from the first namespace to the ready line; CPU seconds over the run "
            "(and as a share of one core); peak resident memory, in all and per emane.\n\n" +
            table(["scenario", "system", "seed", "nodes", "hosts", "processes", "start-up (s)", "run (s)",
                   "CPU (s)", "CPU / run time", "peak RSS (MiB)", "per emane (MiB)", "status"], rows))


def write(emu_dir: Path, emane_dir: Path, out: Path, cost_dirs: list[Path] | None = None,
          before_dir: Path | None = None) -> Path:
    """The page, and its line in the results index beside it (if there is one)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    emu_runs, emane_runs = load_runs(emu_dir), load_runs(emane_dir)
    now = compare(emu_runs, emane_runs)
    text = page(emu_runs, emane_runs, now)
    if before_dir is not None:
        text += before_section(before_dir, emane_runs, now)
    text += "".join(cost_section(d) for d in cost_dirs or [])
    out.write_text(text)
    index = out.parent / "README.md"
    if out.name == PAGE and index.is_file() and INDEX_LINE not in index.read_text():
        index.write_text(index.read_text().rstrip("\n") + "\n" + INDEX_LINE + "\n")
    return out
