"""The scenario's topology expanded by dissem-sim, the one expander of the
scenario language (src/scenario/): `dissem-sim expand SCENARIO --cell k=v
--seed N --horizon-s T` prints the nodes, the links at t = 0, the timeline
of link events (timed changes and random outages folded in), burst loss per
link and the outages drawn. Every engine the runner drives (dissem-emu,
EMANE) gets its links from here, so the simulator, the emulator and EMANE
run the same graph and the same timeline.

dissem-sim is found as $DISSEM_SIM, else in the campaign's --bin-dir
directories, else in $DISSEM_BUILD_DIR/src, else on PATH. Never by
searching build trees: a stale one left on a machine would expand
scenarios with code that is not the code under test.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from .eel import LinkEvent, LinkParams
from .errors import ScenarioError, UserError

PROGRAM = "dissem-sim"
REPO_ROOT = Path(__file__).resolve().parents[2]
_bin_dirs: list[str] = []


def use_bin_dirs(dirs: list[str]) -> None:
    """The directories a campaign's programs come from (--bin-dir): dissem-sim too."""
    global _bin_dirs
    _bin_dirs = list(dirs)


@dataclass
class Expansion:
    events: list[LinkEvent]
    default_disconnected: bool
    links: dict[tuple[int, int], LinkParams]   # state at t = 0
    # Per link: Gilbert-Elliott (p_good_to_bad, p_bad_to_good, loss_in_bad as a probability).
    gilbert: dict[tuple[int, int], tuple[float, float, float]] = field(default_factory=dict)
    # Per link: the random outages drawn for this run, [start, end) in seconds.
    outages: dict[tuple[int, int], list[tuple[float, float]]] = field(default_factory=dict)
    # Geometric topologies: the drawing (radius, links, degrees) and each node's position.
    graph: dict[str, Any] | None = None
    positions: dict[int, tuple[float, float]] = field(default_factory=dict)


def find() -> str | None:
    """$DISSEM_SIM, the --bin-dir directories, $DISSEM_BUILD_DIR/src/dissem-sim, or PATH."""
    explicit = os.environ.get("DISSEM_SIM")
    if explicit:
        return str(Path(explicit).resolve()) if os.sep in explicit else explicit
    for d in _bin_dirs:
        candidate = Path(d) / PROGRAM
        if candidate.is_file():
            return str(candidate.resolve())
    build = os.environ.get("DISSEM_BUILD_DIR")
    if build:
        candidate = (REPO_ROOT / build / "src" / PROGRAM).resolve()
        if candidate.is_file():
            return str(candidate)
    return shutil.which(PROGRAM)


def require() -> str:
    """dissem-sim's path; a UserError saying how to get it when it is not found."""
    program = find()
    if program is None:
        raise UserError(f"{PROGRAM} not found: the runner expands scenarios with it; build it "
                        f"(cmake --build build/release --target {PROGRAM}) and pass --bin-dir build/release/src, "
                        f"set DISSEM_SIM or DISSEM_BUILD_DIR, or put it on PATH")
    if os.sep in program and not os.access(program, os.X_OK):
        raise UserError(f"{program} (DISSEM_SIM) is not an executable {PROGRAM}")
    return program


def _params(j: Mapping[str, Any]) -> LinkParams:
    return LinkParams(j["latency_s"], j["jitter_s"], j["loss_pct"], j["dup_pct"], j["unicast_bps"],
                      j["broadcast_bps"])


def _error(source: str, stderr: str) -> ScenarioError | UserError:
    """dissem-sim's "dissem-sim: FILE: KEY: MESSAGE" as the runner's own error."""
    text = stderr.strip().splitlines()[-1] if stderr.strip() else "failed without a message"
    text = text.removeprefix(f"{PROGRAM}: ")
    if text.startswith(f"{source}: "):
        key, sep, message = text[len(source) + 2:].partition(": ")
        return ScenarioError(source, key, message) if sep else ScenarioError(source, "", key)
    return UserError(f"{source}: {text}")


def check(source: str) -> None:
    """dissem-sim check: the scenario read by the one reader of [topology]
    (and of [nodes] and [matrix]) and every cell of its matrix expanded; a
    ScenarioError names the key of the first problem."""
    done = subprocess.run([require(), "check", source], capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        raise _error(source, done.stderr)


def expand(source: str, matrix_keys, names: Mapping[str, Any], horizon_s: float | None) -> Expansion:
    """The expansion for the cell whose placeholder values `names` holds
    (its matrix keys' values and the seed); random outages are drawn up to
    horizon_s (None: none are)."""
    argv = [require(), "expand", source, "--seed", str(int(names.get("seed", 1))),
            "--horizon-s", repr(float(horizon_s)) if horizon_s is not None else "0"]
    for key in matrix_keys:
        if key in names:  # a key with one value may be left out
            argv += ["--cell", f"{key}={json.dumps(names[key])}"]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        raise _error(source, done.stderr)
    d = json.loads(done.stdout)
    return Expansion(
        events=[LinkEvent(e["at_s"], e["from"], e["to"], _params(e)) for e in d["events"]],
        default_disconnected=d["default_disconnected"],
        links={(j["from"], j["to"]): _params(j) for j in d["links"]},
        gilbert={(g["from"], g["to"]): (g["p_good_to_bad"], g["p_bad_to_good"], g["loss_in_bad"])
                 for g in d["gilbert"]},
        outages={(o["from"], o["to"]): [tuple(span) for span in o["down"]] for o in d["outages"]},
        graph=d.get("graph"),
        positions={n["id"]: (n["x"], n["y"]) for n in d["nodes"] if "x" in n})
