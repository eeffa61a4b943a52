"""Shared helpers for the runner tests: scenario files in tmp_path, the fake
emulator, and running emulation/run as a subprocess (no root needed:
commands run directly, without ip netns exec)."""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

EMULATION = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(EMULATION))

RUN = EMULATION / "run"
FAKE_EMU = Path(__file__).resolve().parent / "fake_emu.py"


# scripts/test.sh runs these tests on several pytest-xdist workers (-n N).
# The tests of these modules share a module-scoped fixture that runs a whole
# campaign: they go to one worker together, so that it runs once (spread over
# the workers, it would run on each of them, at the same time). Every other
# test is a unit of its own, handed to whichever worker is free, as with
# --dist load. (xdist's own --dist loadgroup with xdist_group marks would say
# this in the modules, but under pytest 9 it groups nothing: it renames node
# ids through an attribute pytest no longer reads.)
ONE_WORKER_MODULES = {"test_seed_campaigns.py", "test_emcon.py"}


def pytest_configure(config):
    config.addinivalue_line("markers", "alone: measures what other tests running at the same time would "
                                       "change; scripts/test.sh runs these after the parallel run, one at a time")


@pytest.hookimpl(optionalhook=True, tryfirst=True)
def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") not in ("load", "loadgroup"):
        return None  # --dist loadfile, loadscope, each, worksteal: as asked
    from xdist.scheduler import LoadGroupScheduling

    class Scheduling(LoadGroupScheduling):
        def _split_scope(self, nodeid):
            module = nodeid.split("::", 1)[0]
            if module.rsplit("/", 1)[-1] in ONE_WORKER_MODULES:
                return module
            return super()._split_scope(nodeid)  # the test itself, or its xdist_group

    return Scheduling(config, log)


@pytest.fixture
def write_scenario(tmp_path):
    def write(text, name="scenario.toml"):
        path = tmp_path / name
        path.write_text(textwrap.dedent(text))
        return path
    return write


@pytest.fixture
def fake_env(tmp_path):
    env = dict(os.environ)
    env["FAKE_EMU_LOG"] = str(tmp_path / "fake-emu.log")
    return env


def fake_log(tmp_path):
    path = tmp_path / "fake-emu.log"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def runner_argv(scenario, out, *extra):
    return [sys.executable, str(RUN), str(scenario), "--emu", str(FAKE_EMU), "--netns-exec", "",
            "--out", str(out), *extra]


def run_runner(scenario, out, *extra, env=None, timeout=60):
    return subprocess.run(runner_argv(scenario, out, *extra), capture_output=True, text=True, env=env,
                          timeout=timeout)


def pid_alive(pid):
    """True for a live, non-zombie process."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
    except OSError:
        return False
    return stat[stat.rfind(")") + 2:].split()[0] != "Z"
