"""One run: emulator + node processes for one cell x seed x system.

Order: write the EEL, start the emulator and wait for its ready line, start
every daemon, retry ready probes until each succeeds, then start role
commands after their start delays. The run ends when every waited command
has exited (ok / failed), when time_limit_s passes (timeout), when a
daemon or the emulator dies (error), or on cancel (interrupted). Teardown
always runs, whatever happened: node process groups, then the emulator,
then dissem-emu --cleanup.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import json
import os
import shlex
import shutil
import threading
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import eel, facts, networks, topology
from .emulator import Emulator, RunFailure, build_argv, cleanup, read_stats
from .errors import ScenarioError, TemplateError
from .late_start import LateNodes, plan_late_nodes
from .matrix import Cell
from .processes import POLL_S, ManagedProcess, run_bounded, stop_all
from .results import last_json_object
from .scenario import Command, Scenario
from .templates import Template

PROBE_INTERVAL_S = 0.2
PROBE_ATTEMPT_TIMEOUT_S = 5.0
COLLECT_TIMEOUT_S = 10.0


@dataclass
class RunPlan:
    index: int
    scenario: Scenario
    cell: Cell
    seed: int
    system: str
    profile: str | None
    prefix: str
    rundir: Path
    emu: str
    netns_exec: list[Template]
    bin_dirs: list[str] = field(default_factory=list)
    emu_args: list[str] = field(default_factory=list)   # engine options of the campaign (--emane-hosts)
    subnet: ipaddress.IPv4Network | None = None   # assigned when a slot is free

    @property
    def label(self) -> str:
        return f"{self.cell.id}/{self.system}/seed-{self.seed}"


@dataclass
class NodeProcess:
    kind: str           # daemon | command | collect
    role: str
    node_id: int
    wait: bool
    proc: ManagedProcess | None = None
    start_at: float = 0.0
    command_text: str = ""
    argv: list[str] = field(default_factory=list)


def time_limit(plan: RunPlan, names: dict[str, Any]) -> float:
    profile = plan.scenario.profiles.get(plan.profile) if plan.profile else None
    param = profile.time_limit_s if profile and profile.time_limit_s else plan.scenario.time_limit_s
    return float(param.resolve(names))


def _render(cmd: Command, names, source: str) -> list[str]:
    try:
        return cmd.argv(names)
    except TemplateError as e:
        raise ScenarioError(source, cmd.key, str(e)) from None


class Run:
    def __init__(self, plan: RunPlan, cancel: threading.Event):
        self.plan = plan
        self.cancel = cancel
        self.sc = plan.scenario
        self.rundir = plan.rundir
        self.procs: list[NodeProcess] = []
        self.collects: list[NodeProcess] = []   # started only at the end, see _collect
        self.emulators: list[Emulator] = []   # one per network, in the scenario's order
        self.late = LateNodes([], self.rundir / "logs", self.sc.ready_timeout_s)
        self.result: dict[str, Any] = {}
        self.node_rows: list[dict[str, Any]] = []

    # -- helpers -----------------------------------------------------------------
    def _wrap(self, names, argv: list[str]) -> list[str]:
        prefix = [t.render(names) for t in self.plan.netns_exec]
        return [w for w in prefix if w] + argv

    def _env(self, names, role_env: dict[str, Template], system_env: dict[str, Template]) -> dict[str, str]:
        env = dict(os.environ)
        if self.plan.bin_dirs:
            env["PATH"] = os.pathsep.join(self.plan.bin_dirs + [env.get("PATH", "")])
        env.update(EMU_NODE=str(names["node"]), EMU_NODE_ID=str(names["node_id"]),
                   EMU_ADDRESS=str(names["address"]), EMU_INTERFACE=str(names["interface"]),
                   EMU_WORKDIR=str(names["workdir"]), EMU_SEED=str(names["seed"]))
        for key, t in list(system_env.items()) + list(role_env.items()):
            env[key] = t.render(names)
        return env

    def _start(self, np: NodeProcess, names, env) -> None:
        node = self.sc.nodes.node(np.node_id)
        logs = self.rundir / "logs"
        stem = f"{node.name}.{np.role}.{np.kind}"
        try:
            np.proc = ManagedProcess(np.argv, logs / f"{stem}.stdout", logs / f"{stem}.stderr", env=env,
                                     cwd=Path(names["workdir"]), label=stem)
        except OSError as e:
            raise RunFailure("error", f"cannot start {np.kind} of role {np.role} on {node.name}: "
                                      f"{e.strerror} ({np.argv[0]})") from None

    # -- the run -------------------------------------------------------------------
    def execute(self) -> dict[str, Any]:
        plan = self.plan
        if self.rundir.exists():
            shutil.rmtree(self.rundir)
        (self.rundir / "logs").mkdir(parents=True)
        started_wall = dt.datetime.now(dt.timezone.utc)
        t_start = time.monotonic()
        status, reason = "ok", None
        emu_code = cleanup_code = limit = None
        try:
            cell_names = facts.cell_facts(self.sc, plan.cell, plan.seed)
            limit = time_limit(plan, cell_names)
            status, reason = self._run(cell_names, limit)
        except RunFailure as f:
            status, reason = f.status, f.reason
        except (ScenarioError, TemplateError) as e:
            status, reason = "error", str(e)
        except Exception as e:  # a runner bug must still tear down and be reported
            status, reason = "error", f"runner error: {e!r} (see runner-error.txt)"
            self._note_runner_error()
        finally:
            emu_code, cleanup_code = self._teardown()
        if self.cancel.is_set() and status in ("ok", "failed", "timeout"):
            status, reason = "interrupted", "interrupted"
        self.result = self._result(status, reason, started_wall, time.monotonic() - t_start, limit,
                                   emu_code, cleanup_code)
        (self.rundir / "result.json").write_text(json.dumps(self.result, indent=2) + "\n")
        return self.result

    def _note_runner_error(self) -> None:
        with open(self.rundir / "runner-error.txt", "a") as f:
            f.write(traceback.format_exc())

    def _teardown(self) -> tuple[int | None, int | None]:
        """Node process groups, then the emulator, then --cleanup. Each step
        is guarded so that a failure in one never skips the next."""
        emu_code = cleanup_code = None
        try:
            self.late.stop()
        except Exception:
            self._note_runner_error()
        try:
            stop_all([np.proc for np in self.procs if np.proc], self.sc.stop_grace_s)
        except Exception:
            self._note_runner_error()
        # Later networks first: their TAPs sit in namespaces the first one made.
        for emulator, net in reversed(list(zip(self.emulators, self.sc.networks))):
            code = None
            try:
                code = emulator.stop(net.emulator.stop_timeout_s)
            except Exception:
                self._note_runner_error()
            cleaned = cleanup(self.plan.emu, emulator.prefix, self.rundir, log_name=f"{emulator.stem}-cleanup.log")
            # The first network's codes are the run's; a later one's failure shows there too.
            emu_code = code if emu_code in (None, 0) else emu_code
            cleanup_code = cleaned if cleanup_code in (None, 0) else cleanup_code
        shutil.rmtree(facts.sockdir_for(self.plan.prefix, 1).parent, ignore_errors=True)
        return emu_code, cleanup_code

    def _start_emulators(self, cell_names: dict[str, Any], limit: float) -> dict[int, dict[str, dict]]:
        """One emulator per network, each ready before the next starts (a
        later one joins the namespaces an earlier one made). Returns each
        node's ready-line entries by network name, in network order."""
        plan, sc = self.plan, self.sc
        expansion = topology.expand(sc, cell_names, horizon_s=limit)
        several = len(sc.networks) > 1
        entries: dict[int, dict[str, dict]] = {}
        for net, subnet, prefix in zip(sc.networks, networks.subnets(plan.subnet, sc.networks),
                                       networks.prefixes(plan.prefix, sc.networks)):
            stem = net.file_stem(several)
            links = networks.restrict(expansion, net) if several else expansion
            eel_path = self.rundir / (f"scenario-{net.name}.eel" if several else "scenario.eel")
            eel_path.write_text(eel.write(links.events, eel.EMULATOR_CONVENTION))
            argv = build_argv(plan.emu, sc, cell_names, prefix, subnet, eel_path, plan.seed, links, self.rundir,
                              limit, network=net, stem=stem, joins=networks.joins(net, entries)) + plan.emu_args
            emulator = Emulator(argv, self.rundir, prefix, stem)
            self.emulators.append(emulator)
            ready = emulator.wait_ready(net.emulator.ready_timeout_s, self.cancel, len(net.nodes))
            for node_id, entry in zip(net.nodes, ready):
                entries.setdefault(node_id, {})[net.name] = entry
        return entries

    def _run(self, cell_names: dict[str, Any], limit: float) -> tuple[str, str | None]:
        plan, sc = self.plan, self.sc
        entries = self._start_emulators(cell_names, limit)
        # Scheduled link events count from here: reports relate results to them.
        self.ready_unix = time.time()
        deadline = time.monotonic() + limit

        # A node's own address, namespace and interface are its first network's.
        first = {node_id: next(iter(by_net.values())) for node_id, by_net in entries.items()}
        addresses = {node_id: str(e["address"]) for node_id, e in first.items()}
        run_names = facts.run_facts(sc, cell_names, plan.system, plan.prefix, plan.subnet, self.rundir, limit,
                                    addresses, networks.subnets_by_name(plan.subnet, sc.networks))
        system = sc.systems[plan.system]
        node_names: dict[int, dict[str, Any]] = {}
        envs: dict[tuple[int, str], dict[str, str]] = {}
        for node in sc.nodes.nodes:
            workdir = self.rundir / "nodes" / node.name
            workdir.mkdir(parents=True)
            sockdir = facts.sockdir_for(plan.prefix, node.id)
            sockdir.mkdir(parents=True, exist_ok=True)
            names = facts.node_facts(run_names, node, first[node.id], workdir, sockdir,
                                     entries[node.id] if len(sc.networks) > 1 else None)
            node_names[node.id] = names
            self.node_rows.append({"id": node.id, "name": node.name, "roles": list(node.roles),
                                   "address": names["address"], "namespace": names["namespace"],
                                   "interface": names["interface"], "mac": names["mac"],
                                   "workdir": str(workdir.relative_to(self.rundir))})
            if len(sc.networks) > 1:
                self.node_rows[-1]["networks"] = {net: {"address": e["address"], "interface": e["interface"],
                                                        "mac": e.get("mac", "")}
                                                  for net, e in entries[node.id].items()}

        # Build every process up front so template errors surface before anything starts.
        probes: list[tuple[int, str, list[str]]] = []
        for role, spec in system.roles.items():
            for node_id in sc.nodes.roles[role]:
                names = node_names[node_id]
                env = self._env(names, spec.env, system.env)
                envs[(node_id, role)] = env
                if spec.daemon:
                    argv = self._wrap(names, _render(spec.daemon, names, sc.source))
                    self.procs.append(NodeProcess("daemon", role, node_id, False,
                                                  command_text=spec.daemon.text(names), argv=argv))
                if spec.ready_probe:
                    probes.append((node_id, role, self._wrap(names, _render(spec.ready_probe, names, sc.source))))
                if spec.command:
                    argv = self._wrap(names, _render(spec.command, names, sc.source))
                    delay = float(spec.start_delay_s.resolve(names))
                    self.procs.append(NodeProcess("command", role, node_id, spec.wait, start_at=delay,
                                                  command_text=spec.command.text(names), argv=argv))
                if spec.collect:
                    argv = self._wrap(names, _render(spec.collect, names, sc.source))
                    self.collects.append(NodeProcess("collect", role, node_id, False,
                                                     command_text=spec.collect.text(names), argv=argv))

        self.late = plan_late_nodes(self.sc, self.procs, probes, node_names, envs, self.rundir / "logs")
        daemons = [np for np in self.procs if np.kind == "daemon"]
        for np in daemons:
            if self.late.delay(np.node_id) == 0:
                self._start(np, node_names[np.node_id], envs[(np.node_id, np.role)])
        self._probe_all([p for p in probes if self.late.delay(p[0]) == 0], node_names, envs, deadline, daemons)

        status = self._wait_for_commands(limit, deadline, node_names, envs, daemons)
        self._collect(node_names, envs)
        return status

    def _step_late_nodes(self, elapsed_s: float, node_names, envs) -> None:
        for node in self.late.due_to_start(elapsed_s):
            for np in self.procs:
                if np.kind == "daemon" and np.node_id == node.node_id:
                    self._start(np, node_names[np.node_id], envs[(np.node_id, np.role)])
        failed = self.late.step()
        if failed:
            raise RunFailure("not-ready", f"ready probe of late node(s) {', '.join(failed)} never succeeded "
                                          f"within {self.sc.ready_timeout_s:g} s of their start (see logs/*.probe.log)")

    def _wait_for_commands(self, limit, deadline, node_names, envs, daemons) -> tuple[str, str | None]:
        sc = self.sc
        t0 = time.monotonic()
        commands = sorted((np for np in self.procs if np.kind == "command"), key=lambda n: n.start_at)
        waited = [np for np in commands if np.wait]
        while True:
            if self.cancel.is_set():
                raise RunFailure("interrupted", "interrupted")
            now = time.monotonic()
            self._step_late_nodes(now - t0, node_names, envs)
            for np in commands:
                if np.proc is None and now - t0 >= np.start_at and self.late.is_ready(np.node_id):
                    self._start(np, node_names[np.node_id], envs[(np.node_id, np.role)])
            self._check_alive(daemons)
            if waited and all(np.proc is not None and np.proc.poll() is not None for np in waited):
                break
            if now >= deadline:
                if not waited:
                    return "ok", None  # a fixed-duration run: nothing to wait for
                left = [f"{sc.nodes.node(np.node_id).name}/{np.role}" for np in waited
                        if np.proc is None or np.proc.poll() is None]
                return "timeout", f"time_limit_s {limit:g} reached; still running: {', '.join(left)}"
            time.sleep(POLL_S)
        bad = [f"{sc.nodes.node(np.node_id).name}/{np.role} exited {np.proc.returncode}" for np in waited
               if np.proc.returncode != 0]
        return ("failed", "; ".join(bad)) if bad else ("ok", None)

    def _collect(self, node_names, envs) -> None:
        """Collect commands (e.g. a daemon's final counters) run together,
        after the waited commands and before teardown, bounded in time."""
        if not self.collects or self.cancel.is_set():
            return
        for np in self.collects:
            self._start(np, node_names[np.node_id], envs[(np.node_id, np.role)])
            self.procs.append(np)
        deadline = time.monotonic() + COLLECT_TIMEOUT_S
        while (time.monotonic() < deadline and not self.cancel.is_set()
               and any(np.proc.poll() is None for np in self.collects)):
            time.sleep(POLL_S)

    def _check_alive(self, daemons: list[NodeProcess]) -> None:
        for emulator in self.emulators:
            if not emulator.alive():
                raise RunFailure("error", f"the emulator exited (code {emulator.popen.returncode}) during the run "
                                          f"(see {emulator.stem}.stderr)")
        for np in daemons:
            if np.proc is None:
                continue  # a late node's daemon, not started yet
            code = np.proc.poll()
            if code is not None:
                node = self.sc.nodes.node(np.node_id).name
                raise RunFailure("error", f"daemon of role {np.role} on {node} exited with code {code} "
                                          f"(see logs/{np.proc.label}.stderr)")

    def _probe_all(self, probes, node_names, envs, deadline: float, daemons) -> None:
        """Retry each node's ready probe until it exits 0, within
        ready_timeout_s and the run's time limit."""
        if not probes:
            return
        probe_deadline = min(deadline, time.monotonic() + self.sc.ready_timeout_s)
        pending = list(probes)
        while pending:
            still = []
            for node_id, role, argv in pending:
                if self.cancel.is_set():
                    raise RunFailure("interrupted", "interrupted during ready probes")
                self._check_alive(daemons)
                name = self.sc.nodes.node(node_id).name
                left = probe_deadline - time.monotonic()
                code = run_bounded(argv, max(0.1, min(PROBE_ATTEMPT_TIMEOUT_S, left)),
                                   self.rundir / "logs" / f"{name}.{role}.probe.log",
                                   env=envs[(node_id, role)], cwd=node_names[node_id]["workdir"],
                                   cancel=self.cancel)
                if code != 0:
                    still.append((node_id, role, argv))
            pending = still
            if pending:
                if time.monotonic() >= probe_deadline:
                    which = ", ".join(f"{self.sc.nodes.node(n).name}/{r}" for n, r, _ in pending)
                    raise RunFailure("not-ready", f"ready probe never succeeded on {which} "
                                                  f"(see logs/*.probe.log)")
                time.sleep(PROBE_INTERVAL_S)

    # -- result ---------------------------------------------------------------------
    def _result(self, status, reason, started_wall, wall_s, limit, emu_code, cleanup_code) -> dict[str, Any]:
        plan, sc = self.plan, self.sc
        nodes = {row["id"]: dict(row, processes=[], result=None, collected=None) for row in self.node_rows}
        for np in self.procs:
            entry = {"kind": np.kind, "role": np.role, "wait": np.wait, "command": np.command_text,
                     "argv": np.argv, "started": np.proc is not None}
            if np.proc is not None:
                code = np.proc.poll()
                result = last_json_object(np.proc.stdout_path)
                entry.update(exit_code=code if code is None or code >= 0 else None,
                             signal=-code if code is not None and code < 0 else None,
                             killed=np.proc.killed, wall_s=np.proc.wall_s(),
                             stdout=str(np.proc.stdout_path.relative_to(self.rundir)),
                             stderr=str(np.proc.stderr_path.relative_to(self.rundir)),
                             result=result)
                if np.kind in ("command", "collect") and isinstance(result, dict):
                    field = "result" if np.kind == "command" else "collected"
                    merged = nodes[np.node_id][field] or {}
                    merged.update(result)
                    nodes[np.node_id][field] = merged
            nodes.setdefault(np.node_id, {"id": np.node_id, "processes": [], "result": None})
            nodes[np.node_id]["processes"].append(entry)
        emu = self.emulators[0] if self.emulators else None
        result = {
            "schema": "dissem-emulation-run/1",
            "scenario": sc.name,
            "scenario_file": str(sc.path),
            "profile": plan.profile,
            "cell_id": plan.cell.id,
            "cell": plan.cell.params,
            "system": plan.system,
            "seed": plan.seed,
            "status": status,
            "reason": reason,
            "started_at": started_wall.isoformat(timespec="seconds"),
            "wall_s": round(wall_s, 3),
            "time_limit_s": limit,
            "prefix": plan.prefix,
            "subnet": str(plan.subnet),
            # dissem-emu or emane: the ready line names the engine (dissem-emu's predates the field).
            "engine": ((emu.ready or {}).get("engine") or "dissem-emu") if emu else None,
            "emulator": {
                "argv": emu.argv if emu else None,
                "command": shlex.join(emu.argv) if emu else None,
                "exit_code": emu_code,
                "cleanup_exit_code": cleanup_code,
                "ready": emu.ready if emu else None,
                "ready_unix": getattr(self, "ready_unix", None),
                "stats": read_stats(self.rundir, emu.stem) if emu else None,
            },
            "nodes": [nodes[k] for k in sorted(nodes)],
        }
        if len(sc.networks) > 1:
            # Every network's emulator ("emulator" above is the first one's).
            result["networks"] = [
                {"name": net.name, "interface": net.interface, "nodes": [sc.nodes.node(i).name for i in net.nodes],
                 "prefix": e.prefix, "argv": e.argv, "ready": e.ready, "stats": read_stats(self.rundir, e.stem)}
                for net, e in zip(sc.networks, self.emulators)]
        return result


def execute(plan: RunPlan, cancel: threading.Event) -> dict[str, Any]:
    return Run(plan, cancel).execute()
