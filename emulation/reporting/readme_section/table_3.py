"""Table 3 (the tactical page): a UAV at 230 kbit/s to nine ground nodes,
ours against the paper's DisService and NORM."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .cells import need, num, rows
from .formatting import Links, f1, span


def table_3(summary: dict[str, Any], link: Links) -> list[str]:
    recs = rows(summary, "tactical.md", "p2p / paper DS")

    def pick(system: str, rels: Iterable[int], size: int | None = None) -> list[dict[str, str]]:
        rels = list(rels)
        return [r for r in recs if r["system"] == system and int(need(r["sender rel %"], "rel")) in rels
                and (size is None or int(need(r["msg B"], "size")) == size)]

    def success(system: str, rels: Iterable[int], size: int | None = None) -> list[float | None]:
        return [num(r["success %"]) for r in pick(system, rels, size)]

    def col(system: str, column: str, rels: Iterable[int] = (50, 70, 80, 90), size: int | None = None) \
            -> list[float | None]:
        return [num(r[column]) for r in pick(system, rels, size)]

    sizes = sorted({int(need(r["msg B"], "size")) for r in recs})
    high = success("dissem", (70, 80, 90))
    at_50 = success("dissem", (50,))
    high_text = ("100 % delivered in every cell at 70-90 % sender reliability"
                 if all(v == 100.0 for v in high) else f"{span(high, f1)} % delivered at 70-90 % sender reliability")
    per_size = ", ".join(f"{s // 1024} KB {span(success('dissem', (50,), s), f1)} %" for s in sizes)
    lost_at_50 = any(v is not None and v < 100.0 for v in at_50)
    norm = [v for s in ("norm-pfec", "norm-rfec") for v in success(s, (50, 70, 80, 90))]
    one_kb = col("dissem", "p2p / paper DS", size=sizes[0])
    return [
        "**Table 3 (tactical: UAV at 230 kbit/s to 9 ground nodes, 3 subscribers, about 1.6 MB in a 60 s"
        f" window; {link('tactical.md')}).** Ours: {high_text}, {span(at_50, f1)} % at 50 % ({per_size}), both"
        " variants (in the asymmetric one the UAV cannot receive, so it never serves requests)."
        + (" What is still lost at 50 % is a fragment that all nine ground nodes missed in a message whose block"
           " got no parity symbol (the UAV's configured 10 % is 0.6 of a symbol per 7 KB message): about 6/512"
           " of the messages without parity." if lost_at_50 else "")
        + f" Peer-to-peer bytes per message are {span(col('dissem', 'p2p / paper DS'))}x the paper's DisService"
        f" (ARQ: {span(col('dissem-arq', 'p2p / paper DS'))}x); in the {sizes[0] // 1024} KB cells, where"
        f" coding runs across small messages (window symbols), {span(one_kb)}x. Sender overhead"
        f" {span(col('dissem', 'sender / paper DS'))}x. NORM (proactive and reactive FEC) delivers"
        f" {span(norm, f1)} % depending on the cell (its repairs can only come from the UAV, whose link is"
        " nearly full with the offered load).\n",
    ]
