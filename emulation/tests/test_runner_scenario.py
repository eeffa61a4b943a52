"""Scenario validation: every error names the file and the key."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import run_runner
from runner import scenario, topology
from runner.errors import ScenarioError

BASE = """
name = "s"
time_limit_s = 30
[nodes]
names = ["uav", "a", "b"]
[nodes.roles]
publisher = ["uav"]
subscriber = ["a", "b"]
[matrix]
reliability = [1.0, 0.9]
[topology]
kind = "full"
reliability = "{reliability}"
[systems.dissem.roles.subscriber]
command = "echo {address}"
"""


def load_text(write_scenario, text):
    return scenario.load(write_scenario(text))


def error_of(write_scenario, text) -> ScenarioError:
    with pytest.raises(ScenarioError) as e:
        load_text(write_scenario, text)
    return e.value


def test_base_loads(write_scenario):
    sc = load_text(write_scenario, BASE)
    assert sc.nodes.roles == {"all": [1, 2, 3], "publisher": [1], "subscriber": [2, 3]}
    assert sc.matrix == {"reliability": [1.0, 0.9]}
    assert list(sc.systems) == ["dissem"]


@pytest.mark.parametrize("change, key, fragment", [
    (lambda t: t.replace('name = "s"', ""), "name", "is required"),
    (lambda t: t.replace('name = "s"', 'name = "a b"'), "name", "may only use"),
    (lambda t: t.replace("time_limit_s = 30", "time_limit_s = -1"), "time_limit_s", "below"),
    (lambda t: t.replace("time_limit_s = 30", 'time_limit_s = "{bogus*2}"'), "time_limit_s",
     "unknown placeholder name bogus"),
    (lambda t: t.replace("time_limit_s = 30", "time_limit_s = 30\ntime_limt = 3"), "time_limt", "unknown key"),
    (lambda t: t.replace('publisher = ["uav"]', 'publisher = ["uva"]'), "nodes.roles.publisher",
     "'uva' is no node name"),
    (lambda t: t.replace('names = ["uav", "a", "b"]', 'names = ["uav", "a", "a"]'), "nodes.names", "twice"),
    (lambda t: t.replace("reliability = [1.0, 0.9]", "seed = [1, 2]"), "matrix.seed", "built-in"),
    (lambda t: t.replace("reliability = [1.0, 0.9]", "publisher_ids = [1]"), "matrix.publisher_ids", "built-in"),
    (lambda t: t.replace('reliability = "{reliability}"', "reliability = 1.5"), "topology.reliability",
     "above 1"),
    (lambda t: t.replace('kind = "full"', 'kind = "ring"'), "topology.kind", "not one of"),
    (lambda t: t.replace('kind = "full"', 'kind = "grid"\nrows = 2\ncols = 2'), "topology.rows", "needs 4 nodes"),
    (lambda t: t.replace('command = "echo {address}"', 'command = "echo {adress}"'),
     "systems.dissem.roles.subscriber.command", "unknown placeholder name adress"),
    (lambda t: t.replace("[systems.dissem.roles.subscriber]", "[systems.dissem.roles.listener]"),
     "systems.dissem.roles.listener", "unknown role"),
    (lambda t: t + "wait = 3\n", "systems.dissem.roles.subscriber.wait", "expected true or false"),
    (lambda t: t + '[[topology.override]]\nfrom = "uav"\nreliability = 2\n', "topology.override[1].reliability",
     "above 1"),
    (lambda t: t + '[[topology.override]]\nfrom = "nobody"\n', "topology.override[1].from", "no node name"),
    (lambda t: t + '[profiles.quick.matrix]\nreliability = [0.5]\n', "profiles.quick.matrix.reliability",
     "not among the matrix values"),
    (lambda t: t + "[emulator]\ngilbert = [0.1, 2, 50]\n", "emulator.gilbert[2]", "above 1"),
    (lambda t: t + "[emulator]\nqueue_packet = 5\n", "emulator.queue_packet", "unknown key"),
])
def test_errors_name_the_key(write_scenario, change, key, fragment):
    err = error_of(write_scenario, change(BASE))
    assert err.key == key, str(err)
    assert fragment in str(err)
    assert str(err).startswith(str(err.source) + ": " + key)


def test_toml_syntax_error_names_the_file(write_scenario):
    err = error_of(write_scenario, BASE + "[broken\n")
    assert "TOML syntax error" in str(err) and err.source.endswith("scenario.toml")


def test_template_bounds_checked_per_cell_when_the_scenario_loads(write_scenario):
    # Every cell is expanded at load (dissem-sim check): the bad cell stops
    # the campaign before its first run, naming the key.
    with pytest.raises(ScenarioError) as e:
        load_text(write_scenario, BASE.replace("reliability = [1.0, 0.9]", "reliability = [1.0, 1.5]"))
    assert e.value.key == "topology.reliability" and "above 1" in str(e.value)


def test_override_matching_no_link_is_an_error(write_scenario):
    with pytest.raises(ScenarioError) as e:
        load_text(write_scenario, BASE.replace('kind = "full"', 'kind = "line"')
                  + '[[topology.override]]\nfrom = "uav"\nto = "b"\nreliability = 0.5\n')
    assert e.value.key == "topology.override[1]" and "matches no link" in str(e.value)


def test_cli_prints_one_line_and_exits_2(write_scenario, tmp_path):
    path = write_scenario(BASE.replace('reliability = "{reliability}"', "reliability = 1.5"))
    proc = run_runner(path, tmp_path / "out")
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert proc.stderr.strip() == f"error: {path}: topology.reliability: 1.5 is above 1"


def test_cli_says_when_the_expander_is_missing(write_scenario, tmp_path):
    env = {**os.environ, "DISSEM_SIM": str(tmp_path / "no-such-dissem-sim")}
    proc = run_runner(write_scenario(BASE), tmp_path / "out", "--dry-run", env=env)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.strip() == f"error: {tmp_path / 'no-such-dissem-sim'} (DISSEM_SIM) is not an executable dissem-sim"


def test_the_expander_comes_from_bin_dir_and_never_from_a_build_tree(tmp_path, monkeypatch):
    from runner import expander
    monkeypatch.delenv("DISSEM_SIM", raising=False)
    monkeypatch.delenv("DISSEM_BUILD_DIR", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    try:
        # Build trees of this checkout (build/*/src) are not searched: a stale one would expand for a campaign.
        expander.use_bin_dirs([])
        assert expander.find() is None
        program = tmp_path / "bin" / "dissem-sim"
        program.parent.mkdir()
        program.write_text("#!/bin/sh\n")
        program.chmod(0o755)
        expander.use_bin_dirs([str(tmp_path / "elsewhere"), str(program.parent)])
        assert expander.find() == str(program.resolve())
    finally:
        expander.use_bin_dirs([])


def test_the_cli_checks_a_scenario_with_dissem_sim_from_bin_dir_alone(write_scenario, tmp_path):
    # The scenario is checked by dissem-sim as it loads: --bin-dir must count then too.
    from runner import expander
    real = expander.find()
    assert real, "the runner's tests need dissem-sim (DISSEM_BUILD_DIR or DISSEM_SIM)"
    env = {k: v for k, v in os.environ.items() if k not in ("DISSEM_SIM", "DISSEM_BUILD_DIR")}
    env["PATH"] = "/usr/bin:/bin"
    proc = run_runner(write_scenario(BASE), tmp_path / "out", "--dry-run", "--bin-dir", str(Path(real).parent), env=env)
    assert proc.returncode == 0, proc.stderr


def test_expansion_errors_name_the_file_and_key_as_the_runner_does(write_scenario):
    text = BASE.replace('kind = "full"', 'kind = "line"') + \
        '[[topology.event]]\nat_s = 5\nfrom = "uav"\nto = "b"\nenabled = false\n'
    with pytest.raises(ScenarioError) as e:
        load_text(write_scenario, text)
    assert (e.value.source, e.value.key) == (str(write_scenario(text)), "topology.event[1]")
    assert e.value.message == "matches no link of the line topology"


def test_cli_unknown_profile_and_system(write_scenario, tmp_path):
    path = write_scenario(BASE)
    proc = run_runner(path, tmp_path / "out", "--profile", "quick")
    assert proc.returncode == 2 and "--profile quick: no such profile" in proc.stderr
    proc = run_runner(path, tmp_path / "out", "--systems", "norm")
    assert proc.returncode == 2 and "--systems: unknown norm" in proc.stderr


REPO = Path(__file__).resolve().parents[2]
SHIPPED = sorted((REPO / "emulation" / "scenarios").glob("*.toml"))
# scripts/experiments.sh runs these with --profile quick or full.
EXPERIMENTS = re.findall(r'^  "([a-z0-9-]+) +\d+ ', (REPO / "scripts" / "experiments.sh").read_text(), re.M)


def test_the_experiment_script_names_shipped_scenarios():
    assert len(EXPERIMENTS) >= 7
    assert set(EXPERIMENTS) <= {p.stem for p in SHIPPED}


@pytest.mark.parametrize("path,profile", [(p, "full") for p in SHIPPED] +
                         [(p, "quick") for p in SHIPPED if p.stem in EXPERIMENTS],
                         ids=lambda v: v.stem if isinstance(v, Path) else v)
def test_every_shipped_scenario_expands(path, profile):
    # A dry run loads the file, resolves every template of every run and prints the EEL.
    # The full profiles (hundreds of runs, each expanded by dissem-sim) take the
    # optimised dissem-sim when there is one: under the sanitisers baseline-1to3's
    # alone took 95 s of CI, against 3 s; the quick profiles keep the build under test.
    env = dict(os.environ)
    release_sim = REPO / os.environ.get("DISSEM_RELEASE_BUILD_DIR", "build/release") / "src" / "dissem-sim"
    if profile == "full" and "DISSEM_SIM" not in env and release_sim.is_file():
        env["DISSEM_SIM"] = str(release_sim)
    proc = subprocess.run([sys.executable, str(path.parents[1] / "run"), str(path), "--profile", profile,
                           "--dry-run"], capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode == 0, proc.stderr
    assert "commeffect" in proc.stdout
