"""The NORM gateway scenario (emulation/scenarios/norm-gateway.toml): per
cell, what crossed each way and how often. NORM -> dissem: the NORM
sender's objects as the dissem subscriber wrote them; dissem -> NORM: the
dissem publisher's messages as the NORM receiver saved them (objects that
are not dissem-norm's own); distinct contents against copies, so a loop or
a duplicate shows; and the gateways' own counters."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from .markdown import table

SCENARIO_PREFIX = "norm-gateway"


def is_gateway(scenario: str) -> bool:
    return scenario.startswith(SCENARIO_PREFIX)


def _digests(paths) -> list[str]:
    return [hashlib.sha256(p.read_bytes()).hexdigest() for p in paths]


def run_row(result: dict, run_dir: Path) -> list[str]:
    nodes = {n["name"]: n for n in result.get("nodes", [])}
    workdir = {name: run_dir / n["workdir"] for name, n in nodes.items()}
    cell = result.get("cell") or {}
    sent = (nodes.get("norm-tx") or {}).get("result") or {}
    norm_objects = int(sent.get("objects_enqueued", 0))
    published = sorted(workdir["pub"].glob("m*")) if "pub" in workdir else []
    inbox = _digests(sorted((workdir["sub"] / "inbox").glob("*"))) if "sub" in workdir else []
    saved = _digests(sorted((workdir["norm-rx"] / "objects").glob("*.data"))) if "norm-rx" in workdir else []
    from_dissem = set(_digests(published))
    from_norm_at_sub = [d for d in inbox if d not in from_dissem]
    gateways = [(nodes[g].get("collected") or {}) for g in ("gw1", "gw2") if g in nodes]
    gateways = [g for g in gateways if "to_dissem" in g]
    total = {k: sum(int(g.get(k, 0)) for g in gateways) for k in
             ("to_dissem", "to_norm", "loops_prevented", "duplicates_suppressed")}
    return [str(cell.get("reliability_pct", "")), str(cell.get("gateways", len(gateways))), result.get("status", ""),
            f"{len(set(from_norm_at_sub))}/{norm_objects}", str(len(from_norm_at_sub)),
            f"{len(set(saved) & from_dissem)}/{len(from_dissem)}", str(len(saved)),
            str(total["to_dissem"]), str(total["to_norm"]), str(total["loops_prevented"]),
            str(total["duplicates_suppressed"])]


HEADER = ["rel %", "gateways", "status", "NORM -> dissem distinct", "copies at subscriber", "dissem -> NORM distinct",
          "copies at NORM receiver", "bridged to dissem", "bridged to NORM", "loops prevented",
          "duplicates suppressed"]


def section(results_dir: Path, scenarios: list[str]) -> str:
    rows = []
    for scenario in scenarios:
        for path in sorted((results_dir / scenario).rglob("result.json")):
            with open(path) as f:
                rows.append(run_row(json.load(f), path.parent))
    rows.sort(key=lambda r: (-float(r[0] or 0), r[1]))
    return ("One NORM sender (NRL NORM via dissem-norm, 3 objects) and one dissem publisher (2 messages) on one "
            "emulated radio net with one or two dissem-norm-gateway; a dissem subscriber and a NORM receiver listen "
            "on for 45 s and keep every copy. 'distinct' counts different contents received of those sent; "
            "'copies' everything received, so a loop would show as copies growing past one per gateway. Counters "
            "are the gateways' own, summed (docs/norm-gateway.md).\n\n" + table(HEADER, rows))
