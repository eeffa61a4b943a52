"""Child processes in their own process groups, and bounded ways to end them.

Every child gets a new session (so a terminal's Ctrl-C reaches only the
runner, which then tears down in order) and its group id equals its pid,
so signalling the group also reaches whatever a shell command forked.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

POLL_S = 0.05


def signal_group(pgid: int, sig: int) -> bool:
    """Signal a whole process group; False when nothing is left in it."""
    try:
        os.killpg(pgid, sig)
        return True
    except ProcessLookupError:
        return False
    except PermissionError:
        return False


def live_groups() -> set[int]:
    """Process group ids that still hold a live (non-zombie) process."""
    groups: set[int] = set()
    try:
        entries = os.listdir("/proc")
    except OSError:
        return groups
    for name in entries:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read().decode(errors="replace")
        except OSError:
            continue
        # "pid (comm) state ppid pgrp ..."; comm may contain spaces and parens.
        rest = stat[stat.rfind(")") + 2:].split()
        if len(rest) >= 3 and rest[0] != "Z":
            groups.add(int(rest[2]))
    return groups


class ManagedProcess:
    """One child with stdout/stderr in files."""

    def __init__(self, argv: list[str], stdout: Path, stderr: Path, env: dict[str, str] | None = None,
                 cwd: Path | None = None, label: str = ""):
        self.argv = argv
        self.label = label
        self.stdout_path, self.stderr_path = stdout, stderr
        with open(stdout, "wb") as out, open(stderr, "wb") as err:
            self.popen = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=err, env=env,
                                          cwd=cwd, start_new_session=True)
        self.pid = self.popen.pid
        self.started = time.monotonic()
        self.ended: float | None = None
        self.killed = False

    def poll(self) -> int | None:
        code = self.popen.poll()
        if code is not None and self.ended is None:
            self.ended = time.monotonic()
        return code

    @property
    def returncode(self) -> int | None:
        return self.poll()

    def wall_s(self) -> float:
        end = self.ended if self.ended is not None else time.monotonic()
        return round(end - self.started, 3)


def stop_all(processes: list[ManagedProcess], grace_s: float) -> None:
    """SIGTERM every group at once, wait up to grace_s for all to go,
    SIGKILL what is left, then wait (bounded) for the kernel to finish.

    Groups are signalled even when their leader already exited: a shell
    command may have left a background child behind."""
    running = [p for p in processes if p.poll() is None]
    for p in running:
        p.killed = True
    for p in processes:
        signal_group(p.pid, signal.SIGTERM)
    # Wait for whole groups, not just their leaders: a shell that did not exec
    # dies of the SIGTERM at once while the program under it is still writing
    # its result, and the SIGKILL below must not cut that short.
    groups = {p.pid for p in processes}
    deadline = time.monotonic() + grace_s
    while time.monotonic() < deadline and (any(p.poll() is None for p in processes) or groups & live_groups()):
        time.sleep(POLL_S)
    for p in processes:
        signal_group(p.pid, signal.SIGKILL)
    deadline = time.monotonic() + 5.0
    for p in processes:
        try:
            p.popen.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            pass
        p.poll()
    # Stragglers were SIGKILLed above; give the kernel a moment to reap them.
    deadline = time.monotonic() + 2.0
    while time.monotonic() < deadline and {p.pid for p in processes} & live_groups():
        time.sleep(POLL_S)


def run_bounded(argv: list[str], timeout_s: float, log: Path, env=None, cwd=None, cancel=None) -> int | None:
    """Run a short command (probe, cleanup) with a hard time bound; output
    is appended to log. Returns the exit code, or None when it was killed."""
    with open(log, "ab") as f:
        f.write(f"$ {' '.join(argv)}\n".encode())
        f.flush()
        try:
            proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=f, stderr=subprocess.STDOUT,
                                    env=env, cwd=cwd, start_new_session=True)
        except OSError as e:
            f.write(f"cannot start: {e}\n".encode())
            return 127
    deadline = time.monotonic() + timeout_s
    finished = False
    try:
        while proc.poll() is None and time.monotonic() < deadline and not (cancel is not None and cancel.is_set()):
            time.sleep(POLL_S)
        finished = proc.poll() is not None
    finally:
        # Also reaches leftovers of a finished command (background children).
        signal_group(proc.pid, signal.SIGKILL)
        if not finished:
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
    return proc.returncode if finished else None
