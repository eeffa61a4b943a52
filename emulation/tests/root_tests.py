"""Gate for tests that need root (network namespaces, TAP devices): without
root they skip loudly, unless DISSEM_REQUIRE_ROOT_TESTS=1 (set by
scripts/test.sh when it runs as root, as in CI), where a skip would hide a
broken set-up and they fail instead."""

import os
import subprocess
import time
from pathlib import Path

import pytest


def require_root(what: str) -> None:
    if os.geteuid() == 0:
        return
    reason = f"!!! {what} NOT RUN: needs root (network namespaces, /dev/net/tun) !!!"
    if os.environ.get("DISSEM_REQUIRE_ROOT_TESTS") == "1":
        pytest.fail(reason + " (DISSEM_REQUIRE_ROOT_TESTS=1)", pytrace=False)
    pytest.skip(reason, allow_module_level=True)


def build_dir() -> str:
    """Where dissemd, dissem, dissem-load, dissem-norm and dissem-emu were
    built: $DISSEM_BUILD_DIR, default build/debug (what scripts/test.sh builds)."""
    return os.environ.get("DISSEM_BUILD_DIR", "build/debug")


def release_build_dir() -> str:
    """An optimised build without sanitizers, for what measures a daemon's
    resources (its resident memory means nothing under ASan's shadow memory
    and quarantine): $DISSEM_RELEASE_BUILD_DIR, default build/release (what
    scripts/test.sh builds after the debug build)."""
    return os.environ.get("DISSEM_RELEASE_BUILD_DIR", "build/release")


def stop_processes(procs: list) -> None:
    """Terminates what still runs of `procs` (subprocess.Popen), killing what
    does not end within 10 s: the clean-up of tests that start daemons."""
    for p in procs:
        if p.poll() is None:
            p.terminate()
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()


def start_dissemd(command: list, sock: Path, log: Path, what: str) -> subprocess.Popen:
    """Starts `command` (dissemd and its arguments, behind `ip netns exec`
    if it runs in a namespace) with its stderr in `log`, and waits up to 30 s
    for its IPC socket `sock`; fails the test, with the log, if it does not
    come. `what` names the daemon in that message."""
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=open(log, "wb"))
    deadline = time.monotonic() + 30
    while not sock.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    if not sock.exists():
        proc.kill()
        pytest.fail(f"dissemd {what} did not start: " + log.read_text())
    return proc
