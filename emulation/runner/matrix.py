"""Parameter matrix -> cells, and profiles that select part of it.

A cell is one combination of matrix values (the cartesian product, in the
order the keys and values are written). Its id names its directory, e.g.
capacity_kbps-256_reliability-0.9.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import Any

from .errors import ScenarioError, UserError
from .templates import format_value


@dataclass(frozen=True)
class Cell:
    id: str
    params: dict[str, Any]


@dataclass
class Profile:
    name: str
    seeds: list[int] | None
    matrix: dict[str, list[Any]]      # param -> selected values (subset of the matrix)
    time_limit_s: Any = None          # Param or None


def _id_part(value: Any) -> str:
    text = format_value(value)
    return re.sub(r"[^A-Za-z0-9.+-]+", "-", text).strip("-") or "x"


def cell_id(params: dict[str, Any]) -> str:
    if not params:
        return "default"
    return "_".join(f"{k}-{_id_part(v)}" for k, v in params.items())


def expand(matrix: dict[str, list[Any]], source: str = "") -> list[Cell]:
    keys = list(matrix)
    cells = []
    seen: dict[str, dict] = {}
    for combo in itertools.product(*(matrix[k] for k in keys)):
        params = dict(zip(keys, combo))
        cid = cell_id(params)
        if cid in seen:
            raise ScenarioError(source, "matrix", f"values {seen[cid]} and {params} give the same cell id {cid}")
        seen[cid] = params
        cells.append(Cell(cid, params))
    return cells


def select(matrix: dict[str, list[Any]], profile: Profile | None) -> dict[str, list[Any]]:
    """The matrix restricted by a profile (keys the profile omits keep all values)."""
    if profile is None:
        return dict(matrix)
    return {k: profile.matrix.get(k, v) for k, v in matrix.items()}


def filter_cells(cells: list[Cell], wanted: list[str] | None) -> list[Cell]:
    """--cell ID[,ID]: keep only those cells; unknown ids are an error that
    lists the valid ones."""
    if not wanted:
        return cells
    by_id = {c.id: c for c in cells}
    missing = [w for w in wanted if w not in by_id]
    if missing:
        raise UserError(f"--cell: unknown cell {', '.join(missing)} (cells: {', '.join(by_id)})")
    return [by_id[w] for w in wanted]
