"""Driving dissem-emu: its command line, its ready line, stopping it and
the --cleanup fallback. Anything that honours the CLI contract (the real
emulator or the tests' fake) drops in through --emu.
"""

from __future__ import annotations

import ipaddress
import json
import os
import shutil
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

from . import expander
from .processes import POLL_S, run_bounded, signal_group
from .networks import Network
from .scenario import EmulatorSpec, Scenario
from .topology import Expansion, resolve_gilbert

EMULATOR_NAME = "dissem-emu"


class RunFailure(Exception):
    """Ends a run early with a status other than ok, and a reason."""

    def __init__(self, status: str, reason: str):
        super().__init__(reason)
        self.status = status
        self.reason = reason


def find_emulator(explicit: str | None, repo_root: Path) -> str | None:
    """--emu, else $DISSEM_EMU, else dissem-emu on PATH, else a build tree."""
    for candidate in (explicit, os.environ.get("DISSEM_EMU")):
        if candidate:
            # A path keeps working whatever directory the runs use.
            return str(Path(candidate).resolve()) if os.sep in candidate else candidate
    on_path = shutil.which(EMULATOR_NAME)
    if on_path:
        return on_path
    for pattern in ("build/*/" + EMULATOR_NAME, "build/*/*/" + EMULATOR_NAME, "build/*/*/*/" + EMULATOR_NAME):
        hits = sorted(repo_root.glob(pattern))
        if hits:
            return str(hits[0])
    return None


def _num(x: float) -> str:
    x = float(x)
    return str(int(x)) if x.is_integer() else repr(x)


def build_argv(emu: str, scenario: Scenario, names: dict[str, Any], prefix: str,
               subnet: ipaddress.IPv4Network, eel_path: Path, seed: int, expansion: Expansion,
               rundir: Path, time_limit_s: float, network: Network | None = None, stem: str = "emulator",
               joins: dict[int, str] | None = None) -> list[str]:
    """dissem-emu's command line for one network of a run (default: the one
    network of every node); `expansion` in that network's node ids, `joins`
    its nodes that live in another network's namespace (local id -> name)."""
    spec: EmulatorSpec = network.emulator if network is not None else scenario.emulator
    ids = network.nodes if network is not None else [n.id for n in scenario.nodes.nodes]
    local = {g: i + 1 for i, g in enumerate(ids)}
    argv = [emu, "--prefix", prefix, "--nodes", str(len(ids)), "--subnet", str(subnet),
            "--eel", str(eel_path), "--seed", str(seed)]
    if network is not None and network.interface != "emu0":
        argv += ["--interface", network.interface]
    for local_id, namespace in sorted((joins or {}).items()):
        argv += ["--join", f"{local_id}={namespace}"]
    if spec.queue_packets is not None:
        argv += ["--queue-packets", str(spec.queue_packets.resolve(names))]
    if spec.radio_bps is not None:
        argv += ["--radio-bps", _num(spec.radio_bps.resolve(names))]
    for node_id, p in sorted(spec.radio_bps_node.items()):
        if node_id in local:
            argv += ["--radio-bps-node", f"{local[node_id]}={_num(p.resolve(names))}"]
    if spec.shared_channel_bps is not None:
        argv += ["--shared-channel-bps", _num(spec.shared_channel_bps.resolve(names))]
    if spec.gilbert is not None:
        argv += ["--gilbert", ",".join(_num(x) for x in resolve_gilbert(spec.gilbert, names))]
    for (sender, receiver), g in sorted(expansion.gilbert.items()):
        argv += ["--gilbert-link", f"{sender}:{receiver}=" + ",".join(_num(x) for x in g)]
    if spec.half_duplex_bps is not None:
        argv += ["--half-duplex-bps", _num(spec.half_duplex_bps.resolve(names))]
        if spec.turnaround_ms is not None:
            argv += ["--turnaround-ms", _num(spec.turnaround_ms.resolve(names))]
        if spec.max_hold_ms is not None:
            argv += ["--max-hold-ms", _num(spec.max_hold_ms.resolve(names))]
    if expansion.default_disconnected:
        argv.append("--default-disconnected")
    if spec.pcap:
        argv += ["--pcap-dir", str(rundir / stem.replace("emulator", "pcap", 1))]
    argv += ["--stats-json", str(rundir / f"{stem}-stats.json")]
    if spec.duration_margin_s > 0:
        # A dead man's switch: should the runner itself be SIGKILLed, the
        # emulator still ends (and tears its namespaces down) on its own.
        argv += ["--duration", _num(round(time_limit_s + spec.duration_margin_s, 3))]
    argv += [t.render(names) for t in spec.extra_args]
    return argv


class Emulator:
    """One running emulator instance."""

    def __init__(self, argv: list[str], rundir: Path, prefix: str, stem: str = "emulator"):
        self.argv = argv
        self.prefix = prefix
        self.rundir = rundir
        self.stem = stem      # its files: <stem>.stdout, <stem>.stderr, <stem>-stats.json
        self.ready: dict | None = None
        self._ready_event = threading.Event()
        self._stdout_log = open(rundir / f"{stem}.stdout", "wb")
        self._stderr_log = open(rundir / f"{stem}.stderr", "wb")
        # An engine that expands the scenario itself (dissem-emane) takes the
        # dissem-sim this campaign found, --bin-dir included, whatever its own
        # working directory.
        env = dict(os.environ)
        if "DISSEM_SIM" not in env and (sim := expander.find()) is not None:
            env["DISSEM_SIM"] = sim
        try:
            self.popen = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                          stderr=self._stderr_log, start_new_session=True, env=env)
        except OSError as e:
            self._close_logs()
            raise RunFailure("emulator-failed", f"cannot start {argv[0]}: {e.strerror}") from None
        self._reader = threading.Thread(target=self._read_stdout, daemon=True)
        self._reader.start()

    def _read_stdout(self) -> None:
        # Copies stdout to a file and watches for the ready line; runs until
        # the pipe closes, so the emulator can never block on a full pipe.
        for line in iter(self.popen.stdout.readline, b""):
            self._stdout_log.write(line)
            self._stdout_log.flush()
            if self.ready is None:
                try:
                    obj = json.loads(line)
                except ValueError:
                    continue
                if isinstance(obj, dict) and obj.get("ready") is True:
                    self.ready = obj
                    self._ready_event.set()
        self._ready_event.set()

    def _close_logs(self) -> None:
        for f in (self._stdout_log, self._stderr_log):
            try:
                f.close()
            except OSError:
                pass

    def alive(self) -> bool:
        return self.popen.poll() is None

    def wait_ready(self, timeout_s: float, cancel: threading.Event, n_nodes: int) -> list[dict]:
        deadline = time.monotonic() + timeout_s
        while not self._ready_event.is_set():
            if cancel.is_set():
                raise RunFailure("interrupted", "interrupted while the emulator was starting")
            if time.monotonic() >= deadline:
                raise RunFailure("emulator-failed", f"no ready line within {timeout_s:g} s "
                                                    f"(see {self.stem}.stderr)")
            self._ready_event.wait(POLL_S)
        if self.ready is None:
            code = self.popen.poll()
            raise RunFailure("emulator-failed", f"emulator exited (code {code}) before its ready line "
                                                f"(see {self.stem}.stderr)")
        return self._check_ready(self.ready, n_nodes)

    def _check_ready(self, ready: dict, n_nodes: int) -> list[dict]:
        nodes = ready.get("nodes")
        if not isinstance(nodes, list) or len(nodes) != n_nodes:
            raise RunFailure("emulator-failed", f"ready line lists {len(nodes) if isinstance(nodes, list) else 'no'} "
                                                f"nodes, expected {n_nodes}")
        by_id = {}
        for entry in nodes:
            if not isinstance(entry, dict) or not isinstance(entry.get("id"), int) or "address" not in entry:
                raise RunFailure("emulator-failed", f"ready line node entry without id/address: {entry!r}")
            by_id[entry["id"]] = entry
        if sorted(by_id) != list(range(1, n_nodes + 1)):
            raise RunFailure("emulator-failed", f"ready line node ids {sorted(by_id)} are not 1..{n_nodes}")
        return [by_id[i] for i in range(1, n_nodes + 1)]

    def stop(self, timeout_s: float) -> int | None:
        """SIGTERM (the emulator then writes its stats and tears down), wait
        bounded, SIGKILL the group as a last resort."""
        if self.popen.poll() is None:
            signal_group(self.popen.pid, signal.SIGTERM)
            try:
                self.popen.wait(timeout=timeout_s)
            except subprocess.TimeoutExpired:
                signal_group(self.popen.pid, signal.SIGKILL)
                try:
                    self.popen.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    pass
        signal_group(self.popen.pid, signal.SIGKILL)  # helpers it may have left
        self._reader.join(timeout=5)
        self._close_logs()
        return self.popen.poll()


def cleanup(emu: str, prefix: str, rundir: Path, timeout_s: float = 30.0,
            log_name: str = "emulator-cleanup.log") -> int | None:
    """dissem-emu --cleanup PREFIX: removes namespaces and devices left by
    an instance that did not tear down (always called; harmless otherwise)."""
    return run_bounded([emu, "--cleanup", prefix], timeout_s, rundir / log_name)


def read_stats(rundir: Path, stem: str = "emulator") -> Any:
    path = rundir / f"{stem}-stats.json"
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None
