"""Table 3: a sender (a UAV) over 9 ground nodes, 3 of them subscribers.
Cells are keyed (asymmetric, sender_reliability_pct, message_size); the
asymmetric variant is the one whose sender cannot receive."""

from __future__ import annotations

from pathlib import Path

from . import plots, reference
from .aggregate import group
from .markdown import fmt, ratio, table
from .run_metrics import RunMetrics

PARAMS = ("asymmetric", "sender_reliability_pct", "message_size")
SYSTEMS = ("dissem", "dissem-arq", "norm-pfec", "norm-rfec")
# dissem-arq (coding off) is set beside the paper's DisService, as dissem is.
PAPER_SUFFIX = {"dissem": "ds", "dissem-arq": "ds", "norm-pfec": "norm_pfec", "norm-rfec": "norm_rfec"}


def _missing_note(runs: list[RunMetrics]) -> str:
    missing = [r for r in runs if r.publisher_result_missing]
    if not missing:
        return ""
    systems = ", ".join(sorted({r.system for r in missing}))
    return (f"{len(missing)} of {len(runs)} runs ({systems}) have no publisher result (the process was stopped "
            "before it printed one); their 'sent' is the count the subscribers were told to expect, and their "
            "sender overhead is computed from it.\n")


def variant_name(asymmetric) -> str:
    return "asymmetric" if asymmetric in (True, "true", 1) else "symmetric"


def section(name: str, runs: list[RunMetrics], reference_dir: Path, out_dir: Path) -> str:
    cells = group(runs, PARAMS)
    paper = reference.tactical(reference_dir)
    rows = []
    for key, systems in cells.items():
        asymmetric, rel, size = key
        variant = variant_name(asymmetric)
        pub = paper.get((int(rel), int(size)), {})
        for system in SYSTEMS:
            s = systems.get(system)
            if s is None:
                continue
            p = PAPER_SUFFIX[system]
            rows.append([
                str(variant), str(rel), str(size), system,
                fmt(s.messages_sent, 0), fmt(s.received_mean, 1), fmt(s.success_pct, 1),
                fmt(s.sender_overhead_per_msg, 0), fmt(s.p2p_overhead_per_msg, 0),
                fmt(pub.get(f"success_pct_{p}")), fmt(pub.get(f"sender_overhead_bytes_per_msg_{p}"), 0),
                fmt(pub.get(f"p2p_overhead_bytes_per_msg_{p}"), 0),
                ratio(systems["dissem"].success_pct, s.success_pct) if "dissem" in systems and system != "dissem" else "",
                ratio(s.p2p_overhead_per_msg, pub.get(f"p2p_overhead_bytes_per_msg_{p}")) if p == "ds" else "",
                ratio(s.sender_overhead_per_msg, pub.get(f"sender_overhead_bytes_per_msg_{p}")) if p == "ds" else "",
            ])
    header = ["variant", "sender rel %", "msg B", "system", "sent", "received", "success %", "sender B/msg",
              "p2p B/msg", "paper success %", "paper sender B/msg", "paper p2p B/msg", "success ours/this",
              "p2p / paper DS", "sender / paper DS"]
    seeds = sorted({r.seed for r in runs})
    text = [f"## {name}: tactical network, 3 subscribers\n",
            f"{len(runs)} runs, seeds {seeds}. received: messages completely received, mean over the 3 subscribers "
            "and seeds. Overheads: IP bytes per message sent (sender: beyond the payload; p2p: all other nodes). "
            "The paper's columns are from the same cell of its Table 3 (which did not distinguish the variants).\n",
            _missing_note(runs),
            table(header, rows)]
    for png in plots.tactical(name, cells, paper, out_dir):
        text.append(f"![{png.stem}]({png.name})\n")
    return "\n".join(text)
