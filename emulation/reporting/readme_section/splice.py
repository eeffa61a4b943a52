"""The section in the README: the marker lines around it, taking it out and
putting a new one in, and the diff --check prints."""

from __future__ import annotations

import difflib
import os
import re
from pathlib import Path

BEGIN = "<!-- results:begin (written by emulation/report --readme from docs/results/summary.json: edit " \
        "emulation/reporting/readme_section/, not this section) -->"
END = "<!-- results:end -->"


class ReadmeError(Exception):
    """The README cannot take the section (no markers, or more than one pair)."""


def split(text: str) -> tuple[str, str, str]:
    """(before, section, after) around the markers (marker lines in before/after)."""
    begins = [m.start() for m in re.finditer(re.escape(BEGIN.split(" (")[0]), text)]
    ends = [m.start() for m in re.finditer(re.escape(END), text)]
    if len(begins) != 1 or len(ends) != 1 or ends[0] < begins[0]:
        raise ReadmeError(f"expected one '{BEGIN.split(' (')[0]} ...' line and one '{END}' line after it "
                          f"(found {len(begins)} and {len(ends)})")
    start = text.index("\n", begins[0]) + 1
    return text[:start], text[start:ends[0]], text[ends[0]:]


def results_link(readme: Path, results: Path) -> str:
    return Path(os.path.relpath(results.resolve(), readme.resolve().parent)).as_posix()


def updated(readme_text: str, section: str) -> str:
    before, _, after = split(readme_text)
    begin_line = before.rstrip("\n").rsplit("\n", 1)[-1]
    before = before[: len(before.rstrip("\n")) - len(begin_line)] + BEGIN + "\n"
    return before + section + after


def diff(old: str, new: str, name: str) -> str:
    return "".join(difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True),
                                        f"{name} (as it is)", f"{name} (as emulation/report would write it)"))
