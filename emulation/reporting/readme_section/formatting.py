"""Writing figures: numbers as the section prints them, ranges of them,
Markdown tables and links to the results pages."""

from __future__ import annotations

from collections.abc import Callable, Iterable


def f2(x: float) -> str:
    return f"{x:.2f}"


def f1(x: float) -> str:
    return f"{x:.1f}"


def f0(x: float) -> str:
    return f"{x:,.0f}"


def span(values: Iterable[float | None], form: Callable[[float], str] = f2) -> str:
    """"lo-hi" of the values (as formatted), one figure when they agree, "n/a" when none."""
    present = [v for v in values if v is not None]
    if not present:
        return "n/a"
    lo, hi = form(min(present)), form(max(present))
    return lo if lo == hi else f"{lo}-{hi}"


def rx(x: float) -> str:
    """A ratio: two decimals, none from 10 up."""
    return f"{x:.0f}" if x >= 10 else f"{x:.2f}"


def ms(x: float) -> str:
    return f"{x / 1000:.1f} s" if x >= 10_000 else f"{x:,.0f} ms"


def tracks(x: float) -> str:
    return f0(x) if x >= 1000 else f1(x) if x >= 100 else f2(x)


def md_table(header: list[str], body: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in body])


class Links:
    def __init__(self, results: str):
        self.results = results

    def __call__(self, page: str, text: str | None = None) -> str:
        return f"[{text or page.removesuffix('.md')}]({self.results}/{page})"
