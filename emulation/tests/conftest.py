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
