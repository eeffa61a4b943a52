"""Issue 32's radio silence (EMCON): silent receivers' deliveries, their
bytes as the emulator counted them, and the air against the payload, with
the issue's targets, read from emcon.md."""

from __future__ import annotations

from typing import Any

from .. import summary as summary_mod
from .formatting import Links, md_table

PAGE = "emcon.md"


def emcon(summary: dict[str, Any], link: Links) -> list[str]:
    """Nothing when the results have no such page (a campaign without the scenario)."""
    if PAGE not in summary.get("pages", {}):
        return []
    verdicts = []
    for t in summary_mod.tables(summary, PAGE):
        if t.columns[:3] == ["target", "measured", "verdict"]:
            verdicts = [[r["target"], r["measured"], r["verdict"]] for r in t.records()]
    if not verdicts:
        return []
    return [
        "### Radio silence (EMCON): receivers that may not transmit",
        "",
        f"{link(PAGE, 'docs/results/emcon.md')}: two receivers silent from start-up (`engine.silent`: not one"
        " frame, not even beacons) get 1 MB in 20 messages over links losing 10 % of frames; the publisher,"
        " told their expected loss (`engine.silent_receivers_loss`), sizes every block's parity for a 99.9 %"
        " chance that each receiver decodes it from the first pass alone. Bytes are counted by the emulator at"
        " each node's radio. 3 seeds, with the issue's targets:",
        "",
        md_table(["target", "measured", "verdict"], verdicts),
        "",
        "Where the air target is missed the page gives the binomial bound behind it: each message is its own"
        f" coding block, and so small a block needs that much parity for so high a chance ({link(PAGE)}).",
        "",
    ]
