"""emulation/run finds every program a campaign's systems start before the
first run, and names what is missing; the shipped scenarios start only
programs that scripts/emulation-programs.sh builds (or system tools)."""

import os
import re
import shutil
from pathlib import Path

import pytest

from conftest import fake_log, run_runner
from runner import programs, scenario as scenario_mod
from runner.scenario import Command
from runner.templates import Template

REPO = Path(__file__).resolve().parents[2]
SCENARIOS = REPO / "emulation" / "scenarios"
SHARED = (REPO / "scripts" / "emulation-programs.sh").read_text()
TARGETS = set(re.search(r"^emulation_targets=\(([^)]*)\)", SHARED, re.M).group(1).split())
# What scripts/experiments.sh runs, and what scripts/demo.sh runs.
EXPERIMENTS = re.findall(r'^  "([a-z0-9-]+) +\d+ ', (REPO / "scripts" / "experiments.sh").read_text(), re.M)
DEMO = re.findall(r"emulation/scenarios/([a-z0-9-]+)\.toml", (REPO / "scripts" / "demo.sh").read_text())


def shell(text):
    return Command("k", [Template(text)], shell=True)


@pytest.mark.parametrize("text, expected", [
    ("dissemd --interface {interface} --cache {workdir}/c.db", ["dissemd"]),
    ("echo $$ > {workdir}/daemon.pid; exec sleep 60", ["echo", "sleep"]),
    ("if [ {node} = gw1 ] || [ {n} -ge 2 ]; then exec dissem-norm-gateway --set a=b; else exec sleep 9; fi",
     ["dissem-norm-gateway", "sleep"]),
    ("flock {rundir}/k.lock sh -c 'test -e x || dissem keygen' && exec dissemd --x", ["flock", "dissemd"]),
    ("head -c {bytes} /dev/urandom > {workdir}/p && {repo}/emulation/tools/timed -- dissem publish", ["head"]),
    ("dissem-norm receiver --expect 3 || test $? -eq 1", ["dissem-norm", "test"]),
    ("cat {workdir}/g.json 2>/dev/null || echo '{{}}'", ["cat", "echo"]),
    ("trap '' TERM; sleep 200 & echo $! > {workdir}/c.pid; wait", ["sleep", "echo"]),
    ("FOO=1 env BAR=2 dissem-pgm sender\nnohup dissem-tcp receiver", ["dissem-pgm", "dissem-tcp"]),
    ("for x in a b; do dissem-load $x; done", ["dissem-load"]),
    ("case {node} in a) dissem-rogue;; esac", ["dissem-rogue"]),
    ("/usr/bin/env true; {repo}/x; $PROG; 'quoted' arg; 2>/dev/null", []),
    ("echo 'unbalanced", []),
])
def test_programs_of_a_shell_command(text, expected):
    assert programs.programs_of(shell(text)) == expected


def test_programs_of_an_argv_list():
    assert programs.programs_of(Command("k", [Template("dissem-norm"), Template("sender")], shell=False)) \
        == ["dissem-norm"]
    assert programs.programs_of(Command("k", [Template("{repo}/x"), Template("y")], shell=False)) == []


def scenario_programs(name):
    sc = scenario_mod.load(str(SCENARIOS / f"{name}.toml"))
    return {p for system in sc.systems for c in programs._commands(sc, system) for p in programs.programs_of(c)}


@pytest.mark.parametrize("name", sorted(set(EXPERIMENTS) | set(DEMO)))
def test_shipped_scenarios_start_only_programs_the_scripts_build_or_system_tools(name):
    unknown = {p for p in scenario_programs(name) if p not in TARGETS and shutil.which(p) is None}
    assert not unknown, f"{name} starts {sorted(unknown)}: add their targets to scripts/emulation-programs.sh"


def test_the_demo_and_the_experiments_run_scenarios_that_exist():
    assert set(DEMO) == {"baseline-1to3"}
    assert "baseline-1to3" in EXPERIMENTS
    assert scenario_programs("baseline-1to3") == {"dissemd", "dissem", "dissem-load", "dissem-norm", "dissem-pgm",
                                                  "dissem-jgroups"}


def test_missing_names_each_program_and_the_systems_that_need_it(tmp_path):
    sc = scenario_mod.load(str(SCENARIOS / "baseline-1to3.toml"))
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name in ("dissemd", "dissem", "dissem-load", "dissem-norm"):
        (bin_dir / name).write_text("#!/bin/sh\n")
        (bin_dir / name).chmod(0o755)
    lost = programs.missing(sc, list(sc.systems), [str(bin_dir)], path="")
    assert lost == {"dissem-pgm": ["pgm"], "dissem-jgroups": ["jgroups"]}
    assert programs.missing(sc, ["dissem", "dissem-arq", "norm"], [str(bin_dir)], path="") == {}
    line = programs.describe(lost, ["build/release/src"])
    assert "dissem-jgroups (system jgroups), dissem-pgm (system pgm)" in line
    assert "--bin-dir build/release/src and PATH" in line


def test_a_system_that_sets_its_own_path_is_not_judged(write_scenario):
    path = write_scenario("""
        name = "p"
        time_limit_s = 5
        [nodes]
        names = ["a"]
        [nodes.roles]
        r = ["a"]
        [topology]
        kind = "full"
        [systems.own.env]
        PATH = "/opt/own/bin"
        [systems.own.roles.r]
        command = "own-program"
        [systems.other.roles.r]
        command = "no-such-program-anywhere --x"
        """)
    sc = scenario_mod.load(str(path))
    assert programs.missing(sc, ["own", "other"], []) == {"no-such-program-anywhere": ["other"]}


def test_the_runner_stops_before_the_first_run_and_names_what_is_missing(tmp_path, fake_env):
    env = dict(fake_env, PATH=os.pathsep.join(p for p in ("/usr/bin", "/bin") if Path(p).is_dir()))
    proc = run_runner(SCENARIOS / "baseline-1to3.toml", tmp_path / "out", "--profile", "quick",
                      "--bin-dir", str(tmp_path), env=env)
    assert proc.returncode == 2, proc.stderr
    err = proc.stderr.strip()
    assert err.startswith("error: not found on --bin-dir ") and "Traceback" not in err
    for program, system in (("dissemd", "systems dissem, dissem-arq"), ("dissem-norm", "system norm"),
                            ("dissem-pgm", "system pgm"), ("dissem-jgroups", "system jgroups")):
        assert f"{program} ({system})" in err
    assert fake_log(tmp_path) == [] and not (tmp_path / "out").exists()
