"""NRL NORM through dissem-norm-gateway: what crossed each way, and no loops."""

from __future__ import annotations

from typing import Any

from .cells import rows
from .formatting import Links, md_table


def gateway(summary: dict[str, Any], link: Links) -> list[str]:
    recs = rows(summary, "norm-gateway.md", "loops prevented")
    columns = ["rel %", "gateways", "status", "NORM -> dissem distinct", "copies at subscriber",
               "dissem -> NORM distinct", "copies at NORM receiver", "loops prevented", "duplicates suppressed"]
    return [
        f"**NRL NORM through `dissem-norm-gateway`** ({link('norm-gateway.md')}): a NORM sender's objects to a"
        " dissem subscriber and a dissem publisher's messages to a NORM receiver through one or two gateways;"
        " 'copies' counts everything each received while listening on well past the end, so a loop would show"
        " as more copies than distinct contents:\n",
        md_table(columns, [[r[c] for c in columns] for r in recs]) + "\n",
    ]
