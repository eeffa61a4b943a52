#!/usr/bin/env python3
"""Checks that #include lines run one way between the layers of src/ and
controllers/ (docs/ARCHITECTURE.md):

    core -> config, coding, link -> scenario -> wire (and proto) -> cache -> controllers
         -> engine -> sim, ipc, net -> daemon, client -> tools

config (settings from text, TOML), coding (erasure coding over ISA-L) and
link (the link-effects model the simulator and the emulator drive) need
only core: libraries of their own below everything else. scenario (the
scenario language's expander) needs only those.

A file may include headers of its own layer or of a lower one, never of a
higher one (a back edge); controllers/ may include only core and itself. Siblings of one layer (sim, ipc, net; daemon,
client) may include each other. scripts/test.sh runs this first.

    python3 scripts/check_layers.py            # exit 0 when no back edge, 1 otherwise
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

# Top folder (under src/, or controllers/ and proto/ at the top) -> layer.
LAYERS = {
    "core": 0,
    "config": 0.5, "coding": 0.5, "link": 0.5,
    "scenario": 0.75,
    "wire": 1, "proto": 1,
    "cache": 2,
    "controllers": 3,
    "engine": 4,
    "sim": 5, "ipc": 5, "net": 5,
    "daemon": 6, "client": 6,
    "tools": 7,
}
# Modules that may include only these, whatever lies below them: the
# controllers depend on the project's vocabulary, its settings parser and
# their own interfaces, so a plugin or a new controller needs nothing of the
# cache or the wire.
ONLY = {"controllers": {"core", "config", "controllers"}}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def module_of_file(path: Path) -> str | None:
    rel = path.relative_to(REPO).parts
    if rel[0] == "src" and len(rel) > 2:
        return rel[1]
    if rel[0] == "controllers":
        return "controllers"
    return None


def module_of_include(include: str, including: Path) -> str | None:
    """The module an include names, by its first path part ("engine/types.h");
    a bare name is a file of the including folder (or a generated proto header)."""
    parts = include.split("/")
    if len(parts) == 1:
        if include.endswith(".pb.h"):
            return "proto"
        return module_of_file(including)
    if parts[0] == "controllers":
        return "controllers"
    return parts[0] if parts[0] in LAYERS else None


def back_edges() -> list[str]:
    found = []
    files = sorted(p for top in ("src", "controllers") for p in (REPO / top).rglob("*")
                   if p.suffix in (".h", ".hpp", ".cpp", ".c") and p.is_file())
    for path in files:
        mine = module_of_file(path)
        if mine not in LAYERS:
            continue
        for include in INCLUDE.findall(path.read_text(errors="replace")):
            theirs = module_of_include(include, path)
            if theirs in LAYERS and LAYERS[theirs] > LAYERS[mine]:
                found.append(f"back edge {path.relative_to(REPO)} -> {include} (a lower layer includes a higher one)")
            elif mine in ONLY and theirs in LAYERS and theirs not in ONLY[mine]:
                found.append(f"{path.relative_to(REPO)} -> {include} ({mine} may include only {', '.join(sorted(ONLY[mine]))})")
    return found


def main() -> int:
    edges = back_edges()
    for e in edges:
        print(f"layers: {e}", file=sys.stderr)
    print(f"layers: {len(edges)} forbidden includes" if edges else "layers: every include runs downwards")
    return 1 if edges else 0


if __name__ == "__main__":
    sys.exit(main())
