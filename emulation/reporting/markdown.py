"""Markdown tables: our figure, NORM's from the same runs, the paper's
published NORM and DisService figures, and the ratio ours/NORM."""

from __future__ import annotations


def fmt(value, digits: int = 1, scale: float = 1.0) -> str:
    if value is None:
        return "n/a"
    return f"{value / scale:.{digits}f}"


def ratio(ours, norm) -> str:
    if ours is None or norm in (None, 0):
        return "n/a"
    return f"{ours / norm:.2f}"


def table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines) + "\n"


def completed(summary) -> str:
    return f"{summary.completed}/{summary.runs}" if summary else "0/0"
