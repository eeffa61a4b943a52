"""Issue 32, section 1 on both engines: ours against the faster NORM on
dissem-emu and on EMANE's comm effect shim, read from emane-1toN.md."""

from __future__ import annotations

from typing import Any

from .. import summary as summary_mod
from .formatting import Links, md_table

PAGE = "emane-1toN.md"


def many_receivers_engines(summary: dict[str, Any], link: Links) -> list[str]:
    """Nothing when the results have no such page."""
    if PAGE not in summary.get("pages", {}):
        return []
    verdicts = next((t for t in summary_mod.tables(summary, PAGE) if "NORM held to" in t.columns), None)
    if verdicts is None:
        return []
    return [
        f"The same 1-to-10 cells with radios of their own on both engines, dissem-emu and EMANE's comm effect"
        f" shim, seed by seed in turn ({link(PAGE, 'docs/results/emane-1toN.md')}): ours against the faster"
        " NORM on each, with the issue's targets:",
        "",
        md_table(verdicts.columns, [[r[c] for c in verdicts.columns] for r in verdicts.records()]),
        "",
    ]
