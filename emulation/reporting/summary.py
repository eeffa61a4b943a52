"""summary.json beside the results pages: every table of every page, and the
index's run counts, machine-readable.

emulation/report writes the pages (Markdown, for people) and then this file,
read back from the pages it has just written, so the summary says exactly
what the pages say and nothing else. Whatever needs the figures (the
README's results section, scripts/demo.sh's last lines) reads them here, by
page, heading and column, never from someone's notes. A table cell is kept
as the text the page prints ("40.3", "#N/A", "3/3", "rx1: 3.10"); readers
parse what they need."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA = "dissem-results-summary/1"
FILE = "summary.json"
INDEX = "README.md"
WRITTEN_BY = "emulation/report, from the Markdown pages in this directory (do not edit: run emulation/report)"

# An index line, as emulation/report writes it:
# "- [seed004](seed004.md) (seed004-hf-2nodes, seed004-satcom): 32 runs, 32 ok"
INDEX_LINE = re.compile(r"^- \[(?P<title>[^\]]+)\]\((?P<page>[^)]+)\)(?: \((?P<scenarios>[^)]*)\))?: "
                        r"(?P<runs>\d+) runs, (?P<good>\d+) (?P<kind>complete|ok)$")
SEPARATOR = re.compile(r"^\|(\s*:?-+:?\s*\|)+$")


class SummaryError(Exception):
    """A page that cannot be read as emulation/report writes it."""


@dataclass
class Table:
    page: str
    heading: str
    columns: list[str]
    rows: list[list[str]]

    def records(self) -> list[dict[str, str]]:
        return [dict(zip(self.columns, row)) for row in self.rows]


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip()[1:-1].split("|")]


def parse_page(name: str, text: str) -> tuple[str, list[Table]]:
    """The page's title (its first heading) and its tables, each with the
    nearest heading above it."""
    lines = text.splitlines()
    title, heading, tables = "", "", []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("#"):
            heading = line.lstrip("#").strip()
            title = title or heading
        elif line.startswith("|") and i + 1 < len(lines) and SEPARATOR.match(lines[i + 1].strip()):
            columns = _cells(line)
            rows = []
            i += 2
            while i < len(lines) and lines[i].startswith("|"):
                row = _cells(lines[i])
                if len(row) != len(columns):
                    raise SummaryError(f"{name}, line {i + 1}: {len(row)} cells under {len(columns)} columns")
                rows.append(row)
                i += 1
            tables.append(Table(name, heading, columns, rows))
            continue
        i += 1
    return title, tables


def parse_index(text: str) -> list[dict[str, Any]]:
    entries = []
    for line in text.splitlines():
        m = INDEX_LINE.match(line.strip())
        if m:
            entries.append({"page": m["page"], "title": m["title"],
                            "scenarios": [s.strip() for s in (m["scenarios"] or "").split(",") if s.strip()],
                            "runs": int(m["runs"]), m["kind"]: int(m["good"])})
    return entries


def build(results_dir: Path) -> dict[str, Any]:
    """The summary of the pages in results_dir, as summary.json holds it."""
    index = results_dir / INDEX
    pages: dict[str, Any] = {}
    for path in sorted(results_dir.glob("*.md")):
        if path.name == INDEX:
            continue
        title, tables = parse_page(path.name, path.read_text())
        pages[path.name] = {"title": title, "tables": [{"heading": t.heading, "columns": t.columns, "rows": t.rows}
                                                       for t in tables]}
    return {"schema": SCHEMA, "written_by": WRITTEN_BY,
            "index": parse_index(index.read_text()) if index.is_file() else [], "pages": pages}


def dumps(summary: dict[str, Any]) -> str:
    """JSON with one table row a line, so that a new run's diff reads row by row."""
    def j(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False)

    out = ["{", f' "schema": {j(summary["schema"])},', f' "written_by": {j(summary["written_by"])},', ' "index": [']
    out += [f"  {j(e)}{',' if k < len(summary['index']) - 1 else ''}" for k, e in enumerate(summary["index"])]
    out += [" ],", ' "pages": {']
    names = list(summary["pages"])
    for p, name in enumerate(names):
        page = summary["pages"][name]
        out += [f"  {j(name)}: {{", f"   \"title\": {j(page['title'])},", '   "tables": [']
        for t, table in enumerate(page["tables"]):
            out += ["    {", f"     \"heading\": {j(table['heading'])},", f"     \"columns\": {j(table['columns'])},",
                    '     "rows": [']
            out += [f"      {j(r)}{',' if k < len(table['rows']) - 1 else ''}" for k, r in enumerate(table["rows"])]
            out += ["     ]", f"    }}{',' if t < len(page['tables']) - 1 else ''}"]
        out += ["   ]", f"  }}{',' if p < len(names) - 1 else ''}"]
    out += [" }", "}"]
    return "\n".join(out) + "\n"


def json_of(text: str) -> dict[str, Any]:
    value = json.loads(text)
    assert isinstance(value, dict)
    return value


def write(results_dir: Path) -> Path:
    path = results_dir / FILE
    path.write_text(dumps(build(results_dir)))
    return path


def load(results_dir: Path) -> dict[str, Any]:
    path = results_dir / FILE
    try:
        summary = json.loads(path.read_text())
    except FileNotFoundError:
        raise SummaryError(f"{path} does not exist: emulation/report writes it with the pages (emulation/report "
                           f"--readme README.md --results {results_dir} writes it from them)") from None
    except json.JSONDecodeError as e:
        raise SummaryError(f"{path}: {e}") from None
    if not isinstance(summary, dict) or summary.get("schema") != SCHEMA:
        raise SummaryError(f"{path} is not a {SCHEMA} file")
    return summary


def tables(summary: dict[str, Any], page: str) -> list[Table]:
    try:
        entry = summary["pages"][page]
    except KeyError:
        raise SummaryError(f"the results have no page {page}") from None
    return [Table(page, t["heading"], t["columns"], t["rows"]) for t in entry["tables"]]


def find(summary: dict[str, Any], page: str, column: str, heading: str | None = None) -> Table:
    """The first table of the page that has the column (under the heading,
    when one is given)."""
    for t in tables(summary, page):
        if column in t.columns and (heading is None or t.heading == heading):
            return t
    where = f" under '{heading}'" if heading else ""
    raise SummaryError(f"{page} has no table with the column '{column}'{where}")
