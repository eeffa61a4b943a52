"""Command line of emulation/run. User errors print one line and exit 2;
SIGINT/SIGTERM cancel the campaign, which tears every run down (bounded)
and exits 128 + signal number."""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
from pathlib import Path

from . import campaign, dry_run, emane_export, engines, expander, programs, scenario as scenario_mod
from .emulator import find_emulator
from .errors import UserError
from .project_version import version_line
from .facts import REPO_ROOT


def _int_list(text: str) -> list[int]:
    try:
        values = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated integers, got {text!r}") from None
    if not values or any(v < 0 for v in values):
        raise argparse.ArgumentTypeError(f"expected comma-separated non-negative integers, got {text!r}")
    return values


def _name_list(text: str) -> list[str]:
    values = [x.strip() for x in text.split(",") if x.strip()]
    if not values:
        raise argparse.ArgumentTypeError("expected a comma-separated list")
    return values


def _jobs(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not 1 <= value <= 64:
        raise argparse.ArgumentTypeError("expected 1..64")
    return value


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="emulation/run",
        description="Run a scenario's campaign (cells x seeds x systems) on the dissem-emu emulator.",
        epilog="Scenario reference and result schema: emulation/README.md")
    p.add_argument("--version", action="version", version=version_line("emulation/run"))
    p.add_argument("scenario", help="scenario TOML file")
    p.add_argument("--profile", help="profile of the scenario selecting matrix values and seeds "
                                     "(e.g. quick; 'full' = everything)")
    p.add_argument("--systems", type=_name_list, help="comma-separated systems to run (default: all)")
    p.add_argument("--seeds", type=_int_list, help="comma-separated seeds (default: the profile's or scenario's)")
    p.add_argument("--cell", type=_name_list, help="only these cell ids (comma-separated); "
                                                   "for --export-emane, the one cell to export")
    p.add_argument("--jobs", "-j", type=_jobs, help="runs in parallel (default 1 if the scenario is cpu_heavy, "
                                                    "else min(2, CPUs))")
    p.add_argument("--out", type=Path, default=REPO_ROOT / "emulation" / "out",
                   help="results directory (default: emulation/out)")
    p.add_argument("--engine", choices=engines.ENGINES, default=engines.DEFAULT_ENGINE,
                   help="emulation engine: dissem-emu (ours, default) or emane (EMANE's comm effect shim, "
                        "one emane per node; keys it cannot express are refused by name)")
    p.add_argument("--emane-prefix", metavar="DIR",
                   help="EMANE installation to use with --engine emane (default: $DISSEM_EMANE_PREFIX, "
                        "/opt/dissem-emane from scripts/setup-emane.sh, then emane on PATH)")
    p.add_argument("--emane-hosts", type=_jobs, metavar="K",
                   help="EMANE's distributed mode: with --engine emane, K network namespaces on this machine act "
                        "as hosts, each running one emane with its share of the NEMs; with --export-emane, one "
                        "platform file per host (default: one emane per node)")
    p.add_argument("--emane-model", choices=("commeffect", "rfpipe"), default="commeffect",
                   help="with --engine emane: commeffect (the paper's per-link model, default) or rfpipe (every "
                        "node a radio on one frequency: a shared medium whose collisions come from EMANE)")
    p.add_argument("--emu", help="emulator executable (default: $DISSEM_EMU, dissem-emu on PATH, or build/; "
                                 "with --engine emane, emulation/dissem-emane)")
    p.add_argument("--dry-run", action="store_true", help="print each run's EEL and commands, run nothing")
    p.add_argument("--export-emane", type=Path, metavar="DIR",
                   help="write EMANE platform/event files for one cell into DIR, run nothing")
    p.add_argument("--emane-control-if", default="eth0",
                   help="control network interface named in the EMANE files (default eth0)")
    p.add_argument("--keep-going", action="store_true", help="keep starting runs after one that was not ok")
    p.add_argument("--netns-exec", default="ip netns exec {namespace}",
                   help="prefix that runs a node command in its namespace; '' runs commands directly "
                        "(fake emulators in tests). Default: %(default)r")
    p.add_argument("--bin-dir", action="append", default=[], metavar="DIR",
                   help="prepend DIR to node commands' PATH (repeatable), e.g. build/release/src")
    p.add_argument("--subnet-base", default="10.77.0.0/16",
                   help="run k of J parallel runs uses the k-th /24 of this network (default %(default)s)")
    return p


def _require_emane() -> None:
    from emane_engine.installation import EmaneNotFound, find
    try:
        found = find()
    except EmaneNotFound as e:
        raise UserError(str(e)) from None
    sys.stderr.write(f"engine: EMANE {found.version} in {found.prefix}\n")


def _install_signal_handlers(cancel: threading.Event, received: list[int]) -> None:
    def handler(signum, _frame):
        if not received:
            sys.stderr.write(f"\n{signal.Signals(signum).name}: stopping every run and tearing down "
                             "(bounded; namespaces are cleaned up)...\n")
            sys.stderr.flush()
        received.append(signum)
        cancel.set()

    signal.signal(signal.SIGINT, handler)
    signal.signal(signal.SIGTERM, handler)


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        bin_dirs = [str(Path(d).resolve()) for d in args.bin_dir]
        # dissem-sim checks the scenario as it loads: found in --bin-dir too.
        expander.use_bin_dirs(bin_dirs)
        sc = scenario_mod.load(args.scenario)
        opts = campaign.Options(profile=args.profile, systems=args.systems, seeds=args.seeds, cells=args.cell,
                                jobs=args.jobs, out=args.out.resolve(), netns_exec=args.netns_exec,
                                bin_dirs=bin_dirs,
                                keep_going=args.keep_going, subnet_base=args.subnet_base)
        if args.export_emane:
            cells = campaign.selected_cells(sc, opts)
            if args.cell and len(cells) != 1:
                raise UserError("--export-emane exports one cell: give a single --cell")
            seeds = campaign.selected_seeds(sc, opts)
            written = emane_export.export(sc, cells[0], seeds[0], args.export_emane, args.emane_control_if,
                                          hosts=args.emane_hosts or 0)
            print(f"EMANE files for cell {cells[0].id} (seed {seeds[0]}) in {args.export_emane}: "
                  f"{len(written)} files; see its README.md")
            return 0
        if args.engine == "emane":
            engines.check(sc, campaign.selected_cells(sc, opts), campaign.selected_seeds(sc, opts), args.engine,
                          args.emane_model)
            emu = args.emu or str(engines.EMANE_PROGRAM)
            if args.emane_prefix:
                os.environ["DISSEM_EMANE_PREFIX"] = str(Path(args.emane_prefix).resolve())
            if not args.dry_run and not args.emu:
                _require_emane()
            if args.emane_hosts:
                opts.emu_args += ["--hosts", str(args.emane_hosts)]
            if args.emane_model != "commeffect":
                opts.emu_args += ["--model", args.emane_model]
        elif args.emane_hosts:
            raise UserError("--emane-hosts goes with --engine emane or --export-emane")
        else:
            emu = find_emulator(args.emu, REPO_ROOT)
        if emu is None:
            if not args.dry_run:
                raise UserError("dissem-emu not found: build it, put it on PATH, set DISSEM_EMU or pass --emu PATH")
            emu = "dissem-emu"
        opts.emu = emu
        plans = campaign.plan(sc, opts)
        if not plans:
            raise UserError("nothing to run")
        expander.require()  # every run's links come from dissem-sim expand
        if args.dry_run:
            dry_run.describe(plans, opts.subnet_base, sys.stdout)
            return 0
        # Every program the runs will start, before the first starts.
        lost = programs.missing(sc, list(dict.fromkeys(p.system for p in plans)), opts.bin_dirs)
        if lost:
            raise UserError(programs.describe(lost, args.bin_dir))
        cancel = threading.Event()
        received: list[int] = []
        _install_signal_handlers(cancel, received)
        camp = campaign.Campaign(sc, plans, opts, cancel)
        sys.stderr.write(f"{sc.name}: {len(plans)} runs, {camp.jobs} at a time, results in "
                         f"{opts.out / sc.name}\n")
        code = camp.run()
        if camp.results:
            sys.stderr.write(f"CSV: {camp.csv_path}\n")
        counts: dict[str, int] = {}
        for r in camp.results:
            counts[r["status"]] = counts.get(r["status"], 0) + 1
        sys.stderr.write("runs: " + (", ".join(f"{v} {k}" for k, v in sorted(counts.items())) or "none") + "\n")
        if received:
            return 128 + received[0]
        return code
    except UserError as e:
        sys.stderr.write(f"error: {e}\n")
        return 2
    except BrokenPipeError:
        return 1
    except KeyboardInterrupt:  # before any run started: nothing to tear down
        sys.stderr.write("interrupted\n")
        return 130
