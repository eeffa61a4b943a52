"""Per-node results from stdout, and the campaign CSV.

CSV columns (one row per run):
  scenario, profile, cell_id, <each matrix parameter>, system, seed, status,
  reason, wall_s, time_limit_s, commands_failed, then
  <role>.<field>.<agg> for every numeric field (nested keys joined with
  ".") of the role commands' results, aggregated over that role's nodes:
    max  for times (names ending _s, _ms, _us, or containing "time",
         "latency", "delay", "duration")
    min  for ratios (names containing "pct", "percent", "ratio", "fraction",
         "complete"): the worst node
    sum  for everything else (bytes, packets, counts)
  Booleans count as 0/1, so complete.min is 1 only when every node completed.
  <role>.nodes_with_result counts the nodes that printed a result.
  <role>.collect.<field>.<agg>: the same for the role's collect commands
  (e.g. every daemon's final counters).
  emu.<key> for numeric top-level fields of the emulator's stats and
  emu.<list>.<field>.sum for lists of objects in it (per node / per link
  counters summed).
"""

from __future__ import annotations

import csv
import json
import os
import re
from pathlib import Path
from typing import Any, Iterable

TAIL_BYTES = 1 << 20
LAST_LINE_MAX = 256 << 20
FIXED_COLUMNS = ["scenario", "profile", "cell_id"]
RUN_COLUMNS = ["system", "seed", "status", "reason", "wall_s", "time_limit_s", "commands_failed"]

_TIME = re.compile(r"(_s|_ms|_us)$|time|latency|delay|duration")
_RATIO = re.compile(r"pct|percent|ratio|fraction|complete")


def _last_line(f, size: int) -> bytes:
    """The file's last non-empty line, however long, up to LAST_LINE_MAX bytes."""
    end = size
    while end > 0:
        f.seek(end - 1)
        if f.read(1) not in (b"\n", b"\r"):
            break
        end -= 1
    start = end
    while start > 0 and end - start < LAST_LINE_MAX:
        step = min(TAIL_BYTES, start)
        f.seek(start - step)
        chunk = f.read(step)
        cut = chunk.rfind(b"\n")
        if cut >= 0:
            start = start - step + cut + 1
            break
        start -= step
    if end - start > LAST_LINE_MAX:
        return b""
    f.seek(start)
    return f.read(end - start)


def last_json_object(path: Path) -> dict | None:
    """The last stdout line that parses as a JSON object (only the file's
    last MiB is searched, as a subscriber may have printed a whole payload,
    and the last line itself whatever its length, up to 256 MiB: a receiver
    of tens of thousands of messages prints its result as one long line)."""
    try:
        with open(path, "rb") as f:
            size = f.seek(0, os.SEEK_END)
            f.seek(max(0, size - TAIL_BYTES))
            data = f.read()
            last = _last_line(f, size) if size > TAIL_BYTES else b""
    except OSError:
        return None
    if last.strip().startswith(b"{"):
        try:
            obj = json.loads(last)
            if isinstance(obj, dict):
                return obj
        except ValueError:
            pass
    for line in reversed(data.splitlines()):
        line = line.strip()
        if not line.startswith(b"{"):
            continue
        try:
            obj = json.loads(line)
        except ValueError:
            continue
        if isinstance(obj, dict):
            return obj
    return None


def aggregation(field: str) -> str:
    leaf = field.rsplit(".", 1)[-1].lower()
    if _TIME.search(leaf):
        return "max"
    if _RATIO.search(leaf):
        return "min"
    return "sum"


def numeric_leaves(obj: Any, prefix: str = "") -> Iterable[tuple[str, float]]:
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from numeric_leaves(v, f"{prefix}{k}.")
    elif isinstance(obj, bool):
        yield prefix[:-1], int(obj)
    elif isinstance(obj, (int, float)):
        yield prefix[:-1], obj


def _combine(agg: str, values: list[float]) -> float:
    if agg == "max":
        return max(values)
    if agg == "min":
        return min(values)
    return sum(values)


def role_columns(result: dict) -> dict[str, Any]:
    per_role: dict[str, dict[str, list[float]]] = {}
    with_result: dict[str, set[int]] = {}
    for node in result.get("nodes", []):
        for proc in node.get("processes", []):
            kind = proc.get("kind")
            if kind not in ("command", "collect"):
                continue
            role = proc["role"]
            if kind == "command":
                with_result.setdefault(role, set())
            if isinstance(proc.get("result"), dict):
                if kind == "command":
                    with_result[role].add(node["id"])
                prefix = "collect." if kind == "collect" else ""
                for field, value in numeric_leaves(proc["result"]):
                    per_role.setdefault(role, {}).setdefault(prefix + field, []).append(value)
    cols: dict[str, Any] = {}
    for role, nodes in with_result.items():
        cols[f"{role}.nodes_with_result"] = len(nodes)
    for role, fields in per_role.items():
        for field, values in fields.items():
            agg = aggregation(field)
            cols[f"{role}.{field}.{agg}"] = _combine(agg, values)
    return cols


def emulator_columns(stats: Any) -> dict[str, Any]:
    cols: dict[str, Any] = {}
    if not isinstance(stats, dict):
        return cols
    for key, value in stats.items():
        if isinstance(value, bool):
            cols[f"emu.{key}"] = int(value)
        elif isinstance(value, (int, float)):
            cols[f"emu.{key}"] = value
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            sums: dict[str, float] = {}
            for item in value:
                for k, v in item.items():
                    if isinstance(v, (int, float)) and not isinstance(v, bool) and k not in ("id", "from", "to",
                                                                                            "node", "src", "dst"):
                        sums[k] = sums.get(k, 0) + v
            for k, v in sums.items():
                cols[f"emu.{key}.{k}.sum"] = v
    return cols


def csv_row(result: dict) -> dict[str, Any]:
    row: dict[str, Any] = {
        "scenario": result["scenario"], "profile": result.get("profile") or "", "cell_id": result["cell_id"],
    }
    for k, v in (result.get("cell") or {}).items():
        row[k] = v
    failed = sum(1 for node in result.get("nodes", []) for p in node.get("processes", [])
                 if p.get("kind") == "command" and p.get("wait") and p.get("exit_code") not in (0, None))
    row.update(system=result["system"], seed=result["seed"], status=result["status"],
               reason=result.get("reason") or "", wall_s=result["wall_s"],
               time_limit_s=result.get("time_limit_s"), commands_failed=failed)
    row.update(role_columns(result))
    row.update(emulator_columns((result.get("emulator") or {}).get("stats")))
    return row


def write_csv(path: Path, results: list[dict], matrix_keys: list[str]) -> None:
    """Rewritten whole after every finished run, so an aborted campaign
    still leaves a valid CSV of what did run."""
    rows = [csv_row(r) for r in results]
    head = FIXED_COLUMNS + list(matrix_keys) + RUN_COLUMNS
    extra = sorted({k for row in rows for k in row} - set(head))
    tmp = path.with_suffix(".csv.tmp")
    with open(tmp, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=head + extra, extrasaction="ignore")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: _cell(v) for k, v in row.items()})
    os.replace(tmp, path)


def _cell(v: Any) -> Any:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return repr(round(v, 6)) if not v.is_integer() else str(int(v))
    return v
