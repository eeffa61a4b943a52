"""The papers' published figures (../shared/reference/*.csv, or a copy given
with --reference): read only to be printed beside our measurements."""

from __future__ import annotations

import csv
from pathlib import Path


def _number(text: str) -> float | None:
    text = (text or "").strip()
    return float(text) if text else None  # empty = the paper reports #N/A


def load_table(path: Path, keys: tuple[str, ...]) -> dict[tuple, dict[str, float | None]]:
    """Rows keyed by the integer values of `keys`, other columns as numbers."""
    out: dict[tuple, dict[str, float | None]] = {}
    if not path.exists():
        return out
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            key = tuple(int(float(row[k])) for k in keys)
            out[key] = {k: _number(v) for k, v in row.items() if k not in keys}
    return out


def baseline(reference_dir: Path, receivers: int) -> dict[tuple, dict[str, float | None]]:
    """(reliability_pct, capacity_kbps) -> norm/disservice time and bytes."""
    return load_table(reference_dir / f"paper-baseline-1to{receivers}.csv", ("reliability_pct", "capacity_kbps"))


def tactical(reference_dir: Path) -> dict[tuple, dict[str, float | None]]:
    """(sender_reliability_pct, message_size_bytes) -> sent/received/success/overheads."""
    return load_table(reference_dir / "paper-tactical-3subscribers.csv",
                      ("sender_reliability_pct", "message_size_bytes"))


SEED000_FILE = "paper-seed000-replacement.csv"
SEED000_BUNDLED = Path(__file__).resolve().parent / "paper" / SEED000_FILE


def seed000(reference_dir: Path) -> list[dict]:
    """The Mockets paper's figures, one row per (experiment, stream, system):
    mean_latency_ms, messages_delivered, messages_produced (None where the
    paper gives none) and its note. From reference_dir if it holds the file,
    else the copy kept with the reporter (paper/README.md)."""
    path = reference_dir / SEED000_FILE
    if not path.exists():
        path = SEED000_BUNDLED
    if not path.exists():
        return []
    rows = []
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            rows.append({"experiment": int(row["experiment"]), "stream": row["stream"], "system": row["system"],
                         "mean_latency_ms": _number(row["mean_latency_ms"]),
                         "messages_delivered": _number(row["messages_delivered"]),
                         "messages_produced": _number(row["messages_produced"]), "note": row.get("note") or ""})
    return rows
