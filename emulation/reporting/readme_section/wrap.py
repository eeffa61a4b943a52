"""Folding the section's Markdown at WIDTH columns, as the README's prose is."""

from __future__ import annotations

import re

WIDTH = 100
# A line that starts like this would begin a list item, heading or quote instead of continuing a paragraph.
STARTS_A_BLOCK = re.compile(r"^(?:[-+*]|\d+[.)]|#{1,6}|>)$")


def _fill(text: str, indent: str) -> list[str]:
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        if line and len(line) + 1 + len(word) > WIDTH and not STARTS_A_BLOCK.match(word):
            lines.append(line)
            line = indent + word
        else:
            line = f"{line} {word}" if line else word
    return lines + [line]


def wrap(text: str) -> str:
    """Paragraphs and list items folded at WIDTH columns; tables, headings
    and code blocks as they are."""
    out, code = [], False
    for line in text.split("\n"):
        if line.startswith("```"):
            code = not code
        if code or line.startswith(("```", "|", "#", "<!--")) or len(line) <= WIDTH:
            out.append(line)
        else:
            out += _fill(line, "  " if line.startswith("- ") else "")
    return "\n".join(out)
