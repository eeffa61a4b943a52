"""What the tests of the baseline programs (dissem-norm, dissem-pgm,
dissem-tcp, dissem-jgroups) share: finding the binary, running its processes with their
output in files, reading the JSON result each prints as the last line of
stdout, and killing whatever a test left running.

Import it as the root tests import root_tests.py:

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from baseline_processes import ...  # noqa: E402
"""

import json
import os
import random
import signal
import subprocess
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]


def build_tree(kind):
    """The build tree of `kind` ("debug" or "release"): $DISSEM_BUILD_DIR or
    $DISSEM_RELEASE_BUILD_DIR as the root tests take them (root_tests.py),
    relative to the repository root unless absolute."""
    from root_tests import build_dir, release_build_dir
    return REPO_ROOT / {"debug": build_dir, "release": release_build_dir}[kind]()


def find_binary(env_var, name, kinds=("debug",)):
    """The program to test: $env_var (which must then be executable), else
    emulation/baselines/<system>/NAME in the build tree of the first KIND of
    `kinds` (build_tree: build/debug, build/release by default) where it was
    built; else the test is skipped, saying what to build."""
    env = os.environ.get(env_var)
    if env:
        if not os.access(env, os.X_OK):
            pytest.fail(f"{env_var}={env} is not an executable")
        return env
    system = name.removeprefix("dissem-")
    candidates = [build_tree(kind) / f"emulation/baselines/{system}/{name}" for kind in kinds]
    for path in candidates:
        if os.access(path, os.X_OK):
            return str(path)
    where = " or ".join(map(str, candidates))
    pytest.skip(f"no {name} at {where}: build the {name} target or set {env_var}")


def binary_fixture(env_var, name, kinds=("debug",)):
    """A module-scoped fixture `binary`: find_binary(env_var, name, kinds)."""

    @pytest.fixture(scope="module", name="binary")
    def binary():
        return find_binary(env_var, name, kinds)

    return binary


def processes_fixture(cls, name, wait_s):
    """A fixture `name`: a `cls` (Processes or a subclass) of the binary
    fixture, waiting wait_s for each process, closed after the test."""

    @pytest.fixture(name=name)
    def processes(binary, tmp_path):
        with cls(binary, tmp_path, wait_s) as p:
            yield p

    return processes


def last_json(stdout, what="the process", stderr=""):
    """The JSON result: the last non-blank line of stdout."""
    lines = [line for line in stdout.splitlines() if line.strip()]
    assert lines, f"{what} printed no result; stderr:\n{stderr}"
    return json.loads(lines[-1])


class Processes:
    """Starts processes of one binary with stdout and stderr in files under
    tmp_path; each is waited for at most wait_s. As a context manager, kills
    the ones still running at the end."""

    def __init__(self, binary, tmp_path, wait_s):
        self.binary = binary
        self.tmp_path = tmp_path
        self.wait_s = wait_s
        self.procs = []

    def spawn(self, name, *args):
        """Runs `binary *args`; `name` names its output files and failures."""
        out = open(self.tmp_path / f"{name}.out", "w+")
        err = open(self.tmp_path / f"{name}.err", "w+")
        proc = subprocess.Popen([self.binary, *args], stdout=out, stderr=err)
        proc.name, proc.out, proc.err = name, out, err
        self.procs.append(proc)
        return proc

    def finish(self, proc):
        """Waits (bounded) for proc; returns (exit code, last-line JSON result, stderr)."""
        try:
            code = proc.wait(timeout=self.wait_s)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)
            pytest.fail(f"{proc.name} did not exit within {self.wait_s} s despite --time-limit")
        proc.out.seek(0)
        proc.err.seek(0)
        stdout, stderr = proc.out.read(), proc.err.read()
        return code, last_json(stdout, f"{proc.name} (exit {code})", stderr), stderr

    def stop(self, proc):
        """SIGTERM, as the emulation runner does once the receivers are done."""
        proc.send_signal(signal.SIGTERM)
        return self.finish(proc)

    def close(self):
        for proc in self.procs:
            if proc.poll() is None:
                proc.kill()
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
            proc.out.close()
            proc.err.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class GroupSession(Processes):
    """Senders and receivers of one program (`PROGRAM sender|receiver
    --node-id N ...`) on a private multicast group and port, so that
    concurrent runs do not hear each other. Subclasses say the options every
    process gets (common)."""

    GROUP_PREFIX = "239.77"

    def __init__(self, binary, tmp_path, wait_s):
        super().__init__(binary, tmp_path, wait_s)
        self.group = f"{self.GROUP_PREFIX}.{random.randint(0, 255)}.{random.randint(1, 254)}"
        self.port = random.randint(30000, 59999)

    def common(self, node_id):
        raise NotImplementedError

    def start(self, role, node_id, *extra):
        return self.spawn(f"{role}-{node_id}", role, *self.common(node_id), *extra)

    def receiver(self, node_id, *extra):
        return self.start("receiver", node_id, *extra)
