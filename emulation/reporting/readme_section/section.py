"""The section's Markdown: its introduction, then every experiment's part
in the order the README gives them."""

from __future__ import annotations

from typing import Any

from .formatting import Links
from .gateway import gateway
from .hostile_air import hostile_air
from .emcon import emcon
from .sim_forwarding import sim_forwarding
from .many_receivers import many_receivers
from .many_receivers_engines import many_receivers_engines
from .multihop import multihop
from .seed000 import seed000
from .seed002 import seed002
from .seed003 import seed003
from .seed004 import seed004
from .table_3 import table_3
from .tables_1_2 import tables_1_2
from .two_nets import two_nets
from .wrap import wrap


def render(summary: dict[str, Any], results_link: str) -> str:
    """The section's Markdown, markers excluded."""
    link = Links(results_link)
    index = summary["index"]
    total = sum(e["runs"] for e in index)
    head = [
        "## Results on the emulator: dissemd, NORM, OpenPGM and JGroups in the same runs",
        "",
        f"Full report, per cell and with plots: [docs/results]({results_link}/README.md) ({total:,} runs on"
        f" {len(index)} pages; what ran when, what was run again and the wall times:"
        f" [runtime.txt]({results_link}/runtime.txt)). Every figure below is read from those pages by"
        " `emulation/report --readme` and links its page. Every link emulated by `dissem-emu`, MANE semantics"
        " (independent loss per link and packet), NORM 1.5.9 (Debian's libnorm), OpenPGM 5.3.128 (Debian's"
        " libpgm) and JGroups 5.3.13 configured as in the paper ([emulation/baselines](emulation/baselines/));"
        " bytes are IP bytes all nodes handed to the medium. Five systems on the same links: **ours**"
        " (dissemd's defaults: coded repairs, channel-aware pacing), **ARQ** (the same daemon with"
        " `engine.coding=false`: plain fragment repairs), NORM, OpenPGM and JGroups. Tables 1 and 2 run twice:"
        " with a radio per node at the link rate (MANE's model, the paper's set-up) and on **one shared"
        " channel** of the cell's capacity.",
        "",
        "```sh",
        "sudo emulation/run emulation/scenarios/baseline-1to3.toml --profile quick --systems pgm,jgroups \\",
        "    --bin-dir build/release/emulation/baselines/pgm --bin-dir build/release/emulation/baselines/jgroups",
        "dissem-pgm sender --interface eth0 --rate 1048576 --messages 1x819200      # by hand: see each README",
        "dissem-jgroups receiver --node-id 2 --interface eth0 --rate 1048576 --expect 1",
        "```",
        "",
    ]
    parts = head + tables_1_2(summary, link) + many_receivers(summary, link) + many_receivers_engines(summary, link) + emcon(summary, link) + table_3(summary, link) + multihop(summary, link) + sim_forwarding(summary, link) \
        + hostile_air(summary, link) + gateway(summary, link) + seed000(summary, link) + seed004(summary, link) \
        + two_nets(summary, link) + seed003(summary, link) + seed002(summary, link)
    return wrap("\n".join(parts).rstrip("\n")) + "\n\n"
