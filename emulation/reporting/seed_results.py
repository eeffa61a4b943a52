"""Reading result.json files for the seed-002/003/004 pages: the runs of
the scenarios whose names start with a prefix, and the JSON results of a
role's commands in one run."""

from __future__ import annotations

import json
import math
from pathlib import Path

from runner.results import last_json_object


def scenario_runs(results_dir: Path, scenario: str) -> list[dict]:
    out = []
    for path in sorted((results_dir / scenario).rglob("result.json")):
        with open(path) as f:
            result = json.load(f)
        _reread_missing_results(result, path.parent)
        out.append(result)
    return out


def _reread_missing_results(result: dict, run_dir: Path) -> None:
    """Commands whose result the runner did not store (an older runner read
    only the last MiB of stdout, and a receiver's one-line result can be
    longer) are read again from their stdout log."""
    for node in result.get("nodes", []):
        for proc in node.get("processes", []):
            if proc.get("kind") == "command" and proc.get("result") is None and proc.get("stdout"):
                proc["result"] = last_json_object(run_dir / proc["stdout"])


def command_results(result: dict, role: str) -> list[tuple[str, dict]]:
    """(node name, result) of every command of `role` that printed one."""
    out = []
    for node in result.get("nodes", []):
        for proc in node.get("processes", []):
            if proc.get("kind") == "command" and proc.get("role") == role and isinstance(proc.get("result"), dict):
                out.append((node.get("name", str(node.get("id"))), proc["result"]))
    return out


def quantile(values: list[float], q: float) -> float | None:
    """Linear interpolation between order statistics (R's type 7, what the
    seed-002 paper's tables come from)."""
    if not values:
        return None
    ordered = sorted(values)
    pos = q * (len(ordered) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


def verdict(measured: float | None, target: float, at_least: bool) -> str:
    """met / missed from a measured figure (never from a constant)."""
    if measured is None:
        return "missed (no result)"
    ok = measured >= target if at_least else measured <= target
    return "met" if ok else "missed"
