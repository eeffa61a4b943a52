"""Nodes whose daemons start late ([nodes] start_delay_s).

A late node's daemons start its delay after the on-time nodes' ready probes
succeeded (the moment role commands count their start_delay_s from); its
ready probe is then retried without blocking the run (one attempt at a time,
each bounded), and its role commands start once it is ready and their own
delay, counted from the node's start, has passed. A late node that never
becomes ready within ready_timeout_s ends the run as not-ready.
"""

from __future__ import annotations

import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

from .processes import signal_group

PROBE_INTERVAL_S = 0.2
PROBE_ATTEMPT_TIMEOUT_S = 5.0


@dataclass
class LateNode:
    node_id: int
    name: str
    delay_s: float
    probes: list[tuple[str, list[str], dict[str, str], str]]  # (role, argv, env, cwd)
    started: bool = False
    ready: bool = False
    pending: list[int] = field(default_factory=list)  # indices into probes not yet successful
    attempt: subprocess.Popen | None = None
    attempt_deadline: float = 0.0
    next_try: float = 0.0
    give_up: float = 0.0


def plan_late_nodes(sc, procs, probes, node_names, envs, logs: Path) -> "LateNodes":
    """[nodes] start_delay_s resolved per node; the late nodes' role
    commands (procs of kind "command") are shifted by their node's delay."""
    late = []
    for node_id, param in sorted(sc.node_start_delay.items()):
        delay = float(param.resolve(node_names[node_id]))
        if delay <= 0:
            continue
        mine = [(role, argv, envs[(n, role)], str(node_names[n]["workdir"])) for n, role, argv in probes
                if n == node_id]
        late.append(LateNode(node_id, sc.nodes.node(node_id).name, delay, mine))
        for np in procs:
            if np.node_id == node_id and np.kind == "command":
                np.start_at += delay
    return LateNodes(late, logs, sc.ready_timeout_s)


class LateNodes:
    """Drives the late nodes from the run's waiting loop (step() each pass)."""

    def __init__(self, nodes: list[LateNode], logs: Path, ready_timeout_s: float):
        self.nodes = {n.node_id: n for n in nodes}
        self.logs = logs
        self.ready_timeout_s = ready_timeout_s

    def delay(self, node_id: int) -> float:
        n = self.nodes.get(node_id)
        return n.delay_s if n else 0.0

    def is_ready(self, node_id: int) -> bool:
        n = self.nodes.get(node_id)
        return n is None or n.ready

    def due_to_start(self, elapsed_s: float) -> list[LateNode]:
        """Late nodes whose daemons must start now (marked started)."""
        due = [n for n in self.nodes.values() if not n.started and elapsed_s >= n.delay_s]
        now = time.monotonic()
        for n in due:
            n.started = True
            n.pending = list(range(len(n.probes)))
            n.ready = not n.pending
            n.next_try = now
            n.give_up = now + self.ready_timeout_s
        return due

    def step(self) -> list[str]:
        """Advances every started node's probing; returns the names of nodes
        that ran out of time (the caller ends the run)."""
        failed = []
        now = time.monotonic()
        for n in self.nodes.values():
            if not n.started or n.ready:
                continue
            if n.attempt is not None:
                code = n.attempt.poll()
                if code is None and now < n.attempt_deadline:
                    continue
                self._end_attempt(n)
                if code == 0:
                    n.pending.pop(0)
                    n.ready = not n.pending
                n.next_try = now + (0 if code == 0 else PROBE_INTERVAL_S)
            if n.ready:
                continue
            if now >= n.give_up:
                failed.append(n.name)
            elif now >= n.next_try:
                self._start_attempt(n, now)
        return failed

    def _start_attempt(self, n: LateNode, now: float) -> None:
        role, argv, env, cwd = n.probes[n.pending[0]]
        with open(self.logs / f"{n.name}.{role}.probe.log", "ab") as log:
            log.write(f"$ {' '.join(argv)}\n".encode())
            log.flush()
            try:
                n.attempt = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                             env=env, cwd=cwd, start_new_session=True)
            except OSError as e:
                log.write(f"cannot start: {e}\n".encode())
                n.attempt = None
                n.next_try = now + PROBE_INTERVAL_S
                return
        n.attempt_deadline = now + PROBE_ATTEMPT_TIMEOUT_S

    def _end_attempt(self, n: LateNode) -> None:
        proc, n.attempt = n.attempt, None
        signal_group(proc.pid, signal.SIGKILL)  # a timed-out attempt, or leftovers of a finished one
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass

    def stop(self) -> None:
        """Teardown: no probe attempt outlives the run."""
        for n in self.nodes.values():
            if n.attempt is not None:
                self._end_attempt(n)
