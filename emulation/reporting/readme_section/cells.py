"""Reading figures: the records of a results page's table in summary.json,
and the numbers their cells start with."""

from __future__ import annotations

import re
from typing import Any

from .. import summary as summary_mod
from ..summary import SummaryError, Table

NUMBER = re.compile(r"^-?(\d[\d,]*)?(\.\d+)?")


def num(text: str) -> float | None:
    """The number a cell starts with ("40.3", "1,234", "25.7 (3/3)"); None
    for "#N/A", "n/a", "-" or an empty cell."""
    m = NUMBER.match(text.strip())
    if not m or not m.group(0) or m.group(0) in ("-", "."):
        return None
    return float(m.group(0).replace(",", ""))


def need(text: str, what: str) -> float:
    value = num(text)
    if value is None:
        raise SummaryError(f"{what}: expected a number, found '{text}'")
    return value


def fraction(text: str) -> tuple[int, int]:
    done, _, of = text.strip().partition("/")
    return int(need(done, text)), int(need(of, text))


def rows(summary: dict[str, Any], page: str, column: str, heading: str | None = None) -> list[dict[str, str]]:
    """The records of the page's table that has the column (under a heading
    that starts with `heading`, if given)."""
    for t in summary_mod.tables(summary, page):
        if column in t.columns and (heading is None or t.heading.startswith(heading)):
            return t.records()
    where = f" under a heading starting '{heading}'" if heading else ""
    raise SummaryError(f"{page} has no table with the column '{column}'{where}")


def table_under(summary: dict[str, Any], page: str, heading: str) -> Table:
    for t in summary_mod.tables(summary, page):
        if t.heading == heading:
            return t
    raise SummaryError(f"{page} has no table under the heading '{heading}'")
