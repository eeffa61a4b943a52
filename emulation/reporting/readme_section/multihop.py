"""Multi-hop and disruption: line, grid and random graph, partition and
heal, the late joiner; subscriber-tree forwarding's target worked out from
the figures."""

from __future__ import annotations

import re
from typing import Any

from .cells import need, rows
from .formatting import Links, f2, md_table

MULTIHOP = (("line-5.md", "line of 5"), ("grid-5x5.md", "grid 5x5, corner -> centre and both far corners"),
            ("rgg-50.md", "random geometric graph of 50"), ("partition-heal.md", "partition and heal"),
            ("late-join.md", "late joiner"))
COLUMNS = ["experiment", "cell", "system", "delivered %", "latency mean / p95 s", "data frames / delivery",
           "x flooding", "all frames / delivery", "x flooding", "duplicates", "heal/join -> all s"]


def multihop(summary: dict[str, Any], link: Links) -> list[str]:
    body = _table_rows(summary, link)
    verdicts = _tree_verdicts(summary, link)
    late_joiner = _late_joiner(summary, link)
    heal = rows(summary, "partition-heal.md", "heal/join -> all delivered s")
    return [
        "**Multi-hop and disruption (dissemd's controllers, 1 Mbit/s radios;"
        f" {', '.join(link(page) for page, _ in MULTIHOP)}).** Delivery and latency at the"
        " subscribers present from the start; data frames are the datagrams carrying message data (first pass,"
        " rebroadcasts, repairs, pushes: the daemons' counters) per delivery, all frames include beacons and"
        " requests; x flooding against flooding in the same cell; heal/join: seconds from the heal or the join"
        " to the last delivery (runs where everything arrived):\n",
        md_table(COLUMNS, body) + "\n",
        "Subscriber-tree forwarding's target (at most 0.5x flooding's frames per delivery, with every message"
        f" delivered) is {'; '.join(verdicts)}. Without forwarding ('none') a line of 5 reaches only the nodes"
        " in the publisher's range.",
        "",
        late_joiner,
        "",
        f"Partition and heal ({link('partition-heal.md')}): two clusters joined by a bridge that comes up at"
        f" 30 s; " + "; ".join(f"{r['system']}: {r['delivered %']} % delivered, {r['duplicate deliveries']}"
                              f" duplicates, everything {_runs_of(r['heal/join -> all delivered s'])} after the heal"
                              for r in heal) + ".\n",
    ]


def _cell(text: str) -> str:
    return text.replace("reliability=", "links ").replace("heal_at_s=", "heal at ").replace("join_at_s=", "join at ")


def _runs_of(text: str) -> str:
    """"5.7 (3/3)" -> "5.7 s (mean of the 3 of 3 runs where everything arrived)"."""
    m = re.match(r"^([\d.]+) \((\d+)/(\d+)\)$", text)
    return f"{m[1]} s (mean of the {m[2]} of {m[3]} runs where everything arrived)" if m else text


def _table_rows(summary: dict[str, Any], link: Links) -> list[list[str]]:
    """Every system in every cell of the multi-hop pages."""
    body = []
    for page, label in MULTIHOP:
        for r in rows(summary, page, "data frames / delivery"):
            join = r["heal/join -> all delivered s"]
            body.append([f"{link(page, label)}", _cell(r["cell"]), r["system"], r["delivered %"],
                         f"{r['latency mean s']} / {r['latency p95 s']}", r["data frames / delivery"],
                         r["data frames x flooding"].replace("n/a", ""), r["frames on air / delivery"],
                         r["frames x flooding"].replace("n/a", ""), r["duplicate deliveries"],
                         "" if join == "n/a" else join])
    return body


def _tree_verdicts(summary: dict[str, Any], link: Links) -> list[str]:
    """Subscriber-tree forwarding's target, met or missed, on the grid and the random graph."""
    verdicts = []
    for page, label in MULTIHOP[1:3]:
        for r in rows(summary, page, "data frames / delivery"):
            if r["system"] != "subscriber-tree":
                continue
            x, all_x = need(r["data frames x flooding"], page), need(r["frames x flooding"], page)
            met = x <= 0.5 and need(r["delivered %"], page) == 100.0
            verdicts.append(f"{'met' if met else 'missed'} on the {label.split(',')[0]} ({f2(x)}x of the data"
                            f" frames, {f2(all_x)}x counting beacons and requests; {link(page)})")
    return verdicts


def _late_joiner(summary: dict[str, Any], link: Links) -> str:
    """The late joiner's history: bytes on the air against its payload, and the latency coding costs."""
    late = {(r["cell"], r["system"]): r for r in rows(summary, "late-join.md", "history on air / history")}
    default = {cell: r for (cell, system), r in late.items() if system == "default"}
    ae = {cell: r for (cell, system), r in late.items() if system == "anti-entropy"}
    full, lossy = "join_at_s=30, reliability=1.0", "join_at_s=30, reliability=0.9"
    return (
        f"Late joiner ({link('late-join.md')}: four neighbours hold the history, the joiner asks for 10"
        " messages): bytes on the air from the join on (IP bytes every node sent, beacons apart, from the"
        f" emulator's captures) are {default[full]['history on air / history']}x the history payload at 100 %"
        f" and {default[lossy]['history on air / history']}x at 90 % (anti-entropy, which also pushes the rest"
        f" of the stream: {ae[full]['history on air / history']}x and {ae[lossy]['history on air / history']}x)."
        " Three seeds do not pin this figure down: it has moved between runs of the same cells. Each message has"
        " one first server (a hash of the message and the node ids ranks the would-be servers), so the four"
        " neighbours answer in parallel, each message about once. At 90 % the floor is already about 1.17x"
        " (one copy in ten is lost on the way, and headers cost about 5 %: 1.05 / 0.9); the rest are re-requests"
        " racing answers in flight and window requests answered by several holders. Coding across small"
        " messages has a latency cost on slow streams: a lost 1 KB message of a stream of two a second waits up"
        " to 2 s for the publisher's window symbols before it is asked for, so at 90 % the p95 latency of the"
        f" subscribers present from the start is {default[lossy]['latency p95 s']} s"
        f" ({default[full]['latency p95 s']} s at 100 %).")
