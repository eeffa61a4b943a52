"""A campaign: every cell x seed x system of a scenario (after profile and
command-line filters), run J at a time.

Each of the J workers owns one subnet slot (10.77.<slot>.0/24 by default),
so concurrent runs never share a subnet; every run gets its own prefix
("e" + a 3-character campaign tag + the run index in base 36: 8 characters,
so namespace and host-side interface names stay short). Both systems of a
cell and seed get the same EEL and the same emulator seed, so their
results can be compared side by side.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import os
import random
import string
import threading
from dataclasses import dataclass, field
from pathlib import Path

from . import matrix as matrix_mod
from .errors import UserError
from .execution import RunPlan, execute
from .progress import Progress
from .results import write_csv
from .scenario import Scenario
from .templates import Template

ALPHABET = string.digits + string.ascii_lowercase


@dataclass
class Options:
    profile: str | None = None
    systems: list[str] | None = None
    seeds: list[int] | None = None
    cells: list[str] | None = None
    jobs: int | None = None
    out: Path = Path("emulation/out")
    emu: str = "dissem-emu"
    emu_args: list[str] = field(default_factory=list)   # appended to the engine's command line
    netns_exec: str = "ip netns exec {namespace}"
    bin_dirs: list[str] = field(default_factory=list)
    keep_going: bool = False
    subnet_base: str = "10.77.0.0/16"


def base36(n: int, width: int) -> str:
    out = ""
    for _ in range(width):
        n, r = divmod(n, 36)
        out = ALPHABET[r] + out
    return out


def campaign_tag() -> str:
    return "".join(random.SystemRandom().choice(ALPHABET) for _ in range(3))


def subnet_for_slot(base: str, slot: int) -> ipaddress.IPv4Network:
    try:
        net = ipaddress.IPv4Network(base, strict=False)
    except ValueError as e:
        raise UserError(f"--subnet-base: {e}") from None
    subnets = net.subnets(new_prefix=24) if net.prefixlen <= 24 else iter(())
    for i, sub in enumerate(subnets):
        if i == slot:
            return sub
    raise UserError(f"--subnet-base {base} has no /24 number {slot} (too many --jobs for it)")


def default_jobs(scenario: Scenario) -> int:
    return 1 if scenario.cpu_heavy else max(1, min(2, os.cpu_count() or 1))


def selected_cells(scenario: Scenario, opts: Options) -> list[matrix_mod.Cell]:
    profile = None
    if opts.profile:
        profile = scenario.profiles.get(opts.profile)
        if profile is None and opts.profile != "full":
            known = ", ".join(scenario.profiles) or "none defined"
            raise UserError(f"--profile {opts.profile}: no such profile in {scenario.path} (profiles: {known}; "
                            "'full' means the whole matrix)")
    cells = matrix_mod.expand(matrix_mod.select(scenario.matrix, profile), scenario.source)
    return matrix_mod.filter_cells(cells, opts.cells)


def selected_seeds(scenario: Scenario, opts: Options) -> list[int]:
    if opts.seeds:
        return list(opts.seeds)
    profile = scenario.profiles.get(opts.profile) if opts.profile else None
    if profile and profile.seeds:
        return list(profile.seeds)
    return list(scenario.seeds)


def selected_systems(scenario: Scenario, opts: Options) -> list[str]:
    if not opts.systems:
        return list(scenario.systems)
    unknown = [s for s in opts.systems if s not in scenario.systems]
    if unknown:
        raise UserError(f"--systems: unknown {', '.join(unknown)} (scenario has: {', '.join(scenario.systems)})")
    return list(opts.systems)


def netns_templates(text: str) -> list[Template]:
    import shlex
    from .errors import TemplateError
    try:
        words = shlex.split(text)
        templates = [Template(w) for w in words]
        for t in templates:
            t.check_names({"namespace", "node", "node_id", "prefix"})
    except (ValueError, TemplateError) as e:
        raise UserError(f"--netns-exec {text!r}: {e}") from None
    return templates


def plan(scenario: Scenario, opts: Options) -> list[RunPlan]:
    cells = selected_cells(scenario, opts)
    seeds = selected_seeds(scenario, opts)
    systems = selected_systems(scenario, opts)
    tag = campaign_tag()
    netns = netns_templates(opts.netns_exec)
    plans = []
    for cell in cells:
        for seed in seeds:
            for system in systems:
                index = len(plans)
                rundir = opts.out / scenario.name / cell.id / system / f"seed-{seed}"
                plans.append(RunPlan(index=index, scenario=scenario, cell=cell, seed=seed, system=system,
                                     profile=opts.profile, prefix=f"e{tag}{base36(index, 4)}",
                                     rundir=rundir, emu=opts.emu, netns_exec=netns, bin_dirs=opts.bin_dirs,
                                     emu_args=list(opts.emu_args)))
    return plans


def failed_result(plan: RunPlan, reason: str) -> dict:
    """A result for a run that never got as far as writing its own."""
    return {"schema": "dissem-emulation-run/1", "scenario": plan.scenario.name, "scenario_file": str(plan.scenario.path),
            "profile": plan.profile, "cell_id": plan.cell.id, "cell": plan.cell.params, "system": plan.system,
            "seed": plan.seed, "status": "error", "reason": reason, "started_at": None, "wall_s": 0.0,
            "time_limit_s": None, "prefix": plan.prefix, "subnet": str(plan.subnet), "emulator": None, "nodes": []}


class Campaign:
    def __init__(self, scenario: Scenario, plans: list[RunPlan], opts: Options, cancel: threading.Event,
                 progress: Progress | None = None):
        self.scenario = scenario
        self.plans = plans
        self.opts = opts
        self.cancel = cancel
        self.jobs = max(1, min(opts.jobs or default_jobs(scenario), len(plans) or 1))
        self.progress = progress or Progress(len(plans))
        self.results: list[dict] = []
        self.lock = threading.Lock()
        self.next_index = 0
        self.stop_scheduling = False
        stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
        self.csv_path = opts.out / scenario.name / f"campaign-{stamp}.csv"

    def _take(self) -> RunPlan | None:
        with self.lock:
            if self.stop_scheduling or self.cancel.is_set() or self.next_index >= len(self.plans):
                return None
            plan = self.plans[self.next_index]
            self.next_index += 1
            return plan

    def _worker(self, slot: int) -> None:
        subnet = subnet_for_slot(self.opts.subnet_base, slot)
        while True:
            plan = self._take()
            if plan is None:
                return
            plan.subnet = subnet
            self.progress.started_run(plan.label)
            try:
                result = execute(plan, self.cancel)
            except Exception as e:  # e.g. the run directory cannot be created
                result = failed_result(plan, f"run could not be executed: {e}")
            with self.lock:
                self.results.append(result)
                if result["status"] != "ok" and not self.opts.keep_going:
                    self.stop_scheduling = True
                ordered = sorted(self.results, key=lambda r: (r["cell_id"], r["seed"], r["system"]))
                self.csv_path.parent.mkdir(parents=True, exist_ok=True)
                write_csv(self.csv_path, ordered, list(self.scenario.matrix))
            self.progress.finished_run(plan.label, result["status"], result["wall_s"], result.get("reason"))

    def run(self) -> int:
        """Run everything; returns the process exit code (0 all ok, 1 some
        run not ok or not run, 130 interrupted)."""
        # Validate the subnet slots before starting anything.
        for slot in range(self.jobs):
            subnet_for_slot(self.opts.subnet_base, slot)
        workers = [threading.Thread(target=self._worker, args=(slot,), name=f"run-slot-{slot}", daemon=True)
                   for slot in range(self.jobs)]
        for w in workers:
            w.start()
        # The main thread only waits, in short steps, so signal handlers run promptly.
        while any(w.is_alive() for w in workers):
            for w in workers:
                w.join(timeout=0.2)
            self.progress.tick()
        self.progress.close()
        if self.cancel.is_set():
            return 130
        if self.stop_scheduling and len(self.results) < len(self.plans):
            self.progress.message(f"stopped after a run that was not ok ({len(self.plans) - len(self.results)} "
                                  "runs not started; --keep-going runs them anyway)")
        ok = len(self.results) == len(self.plans) and all(r["status"] == "ok" for r in self.results)
        return 0 if ok else 1
