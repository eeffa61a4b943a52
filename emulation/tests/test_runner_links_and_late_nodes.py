"""The scenario features of the HF, satcom and disconnection campaigns:
random outages per link, burst loss per link, the half-duplex channel, and
nodes whose daemons start late (fake emulator, no root)."""

import json
import statistics

import pytest

from conftest import run_runner
from runner import eel, emane_export, errors, facts, matrix, scenario, topology
from runner.emulator import build_argv

BASE = """
name = "links"
time_limit_s = 600
[nodes]
names = ["a", "b", "c"]
[topology]
kind = "full"
capacity_bps = 2400
{topology}
{extra}
[systems.s.roles.all]
command = "true"
"""


def load(write_scenario, topology_text="", extra=""):
    return scenario.load(write_scenario(BASE.format(topology=topology_text, extra=extra)))


def expand(sc, seed=1, horizon=600.0):
    return topology.expand(sc, {"seed": seed}, horizon_s=horizon)


OUTAGE = """
[[topology.outage]]
from = "a"
to = "b"
mean_up_s = 20
mean_down_s = 1
"""


def test_outages_are_reproducible_per_seed_and_take_both_directions_down(write_scenario):
    sc = load(write_scenario, OUTAGE)
    first, again, other = expand(sc, 1), expand(sc, 1), expand(sc, 2)
    assert first.outages == again.outages and first.events == again.events
    assert first.outages[(1, 2)] != other.outages[(1, 2)]
    assert first.outages[(1, 2)] == first.outages[(2, 1)]  # both directions together
    assert (1, 3) not in first.outages
    # Every outage becomes a disabled link at its start and the link as it was at its end.
    for start, end in first.outages[(1, 2)]:
        at = {e.time_s: e.params for e in first.events if (e.sender, e.receiver) == (1, 2)}
        assert at[start].disabled and not at[end].disabled and at[end].unicast_bps == 2400


def test_outage_durations_follow_their_means(write_scenario):
    # The draws are dissem-sim's (tests/unit/scenario_language_test.cpp checks them too).
    sc = load(write_scenario, OUTAGE)
    spans = expand(sc, 7, horizon=200_000.0).outages[(1, 2)]
    downs = [e - s for s, e in spans]
    ups = [s2 - e for (_, e), (s2, _) in zip(spans, spans[1:])]
    assert len(spans) > 8000
    assert statistics.mean(downs) == pytest.approx(1.0, rel=0.05)
    assert statistics.mean(ups) == pytest.approx(20.0, rel=0.05)


def test_outages_compose_with_timed_changes(write_scenario):
    sc = load(write_scenario, OUTAGE + """
[[topology.event]]
at_s = 100
from = "a"
to = "b"
capacity_bps = 75
""")
    exp = expand(sc, 3, 400)
    link = sorted((e for e in exp.events if (e.sender, e.receiver) == (1, 2)), key=lambda e: e.time_s)
    for start, end in exp.outages[(1, 2)]:
        restored = [e for e in link if e.time_s == end][-1].params
        assert restored.unicast_bps == (75 if end >= 100 else 2400)
    # While down, the timed change is written disabled.
    for e in link:
        if any(s <= e.time_s < t for s, t in exp.outages[(1, 2)]):
            assert e.params.disabled


def test_an_outage_that_matches_no_link_is_an_error(write_scenario):
    path = write_scenario(BASE.format(topology="""
[[topology.outage]]
from = "a"
to = "a"
mean_up_s = 20
mean_down_s = 1
""", extra=""))
    with pytest.raises(errors.ScenarioError, match=r"topology.outage\[1\]: matches no link"):
        scenario.load(path)


def test_outage_means_must_be_positive(write_scenario):
    with pytest.raises(errors.ScenarioError, match=r"topology.outage\[1\].mean_down_s"):
        load(write_scenario, OUTAGE.replace("mean_down_s = 1", "mean_down_s = 0"))


def _argv(sc, tmp_path, exp):
    return build_argv("dissem-emu", sc, {"seed": 1}, "p", None, tmp_path / "s.eel", 1, exp, tmp_path, 600)


def test_burst_loss_per_link_reaches_the_emulator_as_probabilities(write_scenario, tmp_path):
    import ipaddress
    sc = load(write_scenario, """
gilbert = [0.01, 0.5, 50]
[[topology.override]]
from = "a"
to = "b"
gilbert = "0.2, 0.1, 100"
""", "[emulator]\ngilbert = [0.1, 0.2, 25]\n")
    exp = expand(sc)
    assert exp.gilbert[(1, 2)] == (0.2, 0.1, 1.0)
    assert exp.gilbert[(2, 1)] == (0.01, 0.5, 0.5)
    argv = build_argv("dissem-emu", sc, {"seed": 1}, "p", ipaddress.IPv4Network("10.77.0.0/24"),
                      tmp_path / "s.eel", 1, exp, tmp_path, 600)
    assert argv[argv.index("--gilbert") + 1] == "0.1,0.2,0.25"
    pairs = [argv[i + 1] for i, a in enumerate(argv) if a == "--gilbert-link"]
    assert "1:2=0.2,0.1,1" in pairs and "2:1=0.01,0.5,0.5" in pairs and len(pairs) == 6


def test_burst_loss_is_not_a_timed_change(write_scenario):
    with pytest.raises(errors.ScenarioError, match=r"topology.event\[1\].gilbert"):
        load(write_scenario, "[[topology.event]]\nat_s = 5\ngilbert = [0.1, 0.1, 10]\n")


def test_half_duplex_channel_options(write_scenario, tmp_path):
    import ipaddress
    sc = load(write_scenario, "", "[emulator]\nhalf_duplex_bps = 75\nturnaround_ms = 1000\nmax_hold_ms = 30000\n")
    argv = build_argv("dissem-emu", sc, {"seed": 1}, "p", ipaddress.IPv4Network("10.77.0.0/24"),
                      tmp_path / "s.eel", 1, expand(sc), tmp_path, 600)
    assert argv[argv.index("--half-duplex-bps") + 1] == "75"
    assert argv[argv.index("--turnaround-ms") + 1] == "1000"
    assert argv[argv.index("--max-hold-ms") + 1] == "30000"
    with pytest.raises(errors.ScenarioError, match=r"emulator.turnaround_ms: only applies with half_duplex_bps"):
        load(write_scenario, "", "[emulator]\nturnaround_ms = 1000\n")
    with pytest.raises(errors.ScenarioError, match=r"emulator.half_duplex_bps: excludes"):
        load(write_scenario, "", "[emulator]\nhalf_duplex_bps = 75\nradio_bps = 75\n")


def test_emane_export_keeps_outages_and_names_what_it_cannot_carry(write_scenario, tmp_path):
    sc = load(write_scenario, "gilbert = [0.01, 0.5, 50]\n" + OUTAGE,
              "[emulator]\nhalf_duplex_bps = 75\nturnaround_ms = 1000\n")
    cell = matrix.expand({})[0]
    emane_export.export(sc, cell, 1, tmp_path / "emane")
    readme = (tmp_path / "emane" / "README.md").read_text()
    assert "`half_duplex_bps`" in readme and "`turnaround_ms`" in readme and "per-link burst loss" in readme
    assert "Random outages" in readme
    eel_text = (tmp_path / "emane" / "scenario.eel").read_text()
    exp = topology.expand(sc, facts.cell_facts(sc, cell, 1), horizon_s=600)
    start = exp.outages[(1, 2)][0][0]
    assert any(line.startswith(f"{eel.number(start)} nem:1 commeffect nem:2,0,0,100,") for line in eel_text.splitlines())


LATE = """
name = "late"
time_limit_s = 20
[nodes]
names = ["a", "b"]
[nodes.start_delay_s]
b = 1.5
[topology]
kind = "full"
[systems.s.roles.all]
daemon = "date +%s.%N > {workdir}/daemon.t; exec sleep 60"
ready_probe = "test -f {workdir}/daemon.t"
command = "date +%s.%N > {workdir}/command.t; echo '{{\\"ok\\": 1}}'"
start_delay_s = 0.5
"""


def test_a_late_node_starts_its_daemon_and_commands_late(write_scenario, tmp_path, fake_env):
    out = tmp_path / "out"
    proc = run_runner(write_scenario(LATE), out, env=fake_env)
    assert proc.returncode == 0, proc.stderr
    run = out / "late" / "default" / "s" / "seed-1"
    result = json.loads((run / "result.json").read_text())
    assert result["status"] == "ok"
    t = {n: {k: float((run / "nodes" / n / f"{k}.t").read_text()) for k in ("daemon", "command")} for n in "ab"}
    # b's daemon starts 1.5 s after a is ready; its command 0.5 s after b's start, once b is ready.
    assert t["b"]["daemon"] - t["a"]["daemon"] >= 1.5
    assert t["b"]["command"] - t["a"]["command"] >= 1.4  # a's own command may start a little late
    assert t["b"]["command"] >= t["b"]["daemon"]
    assert (run / "logs" / "b.all.probe.log").exists()


def test_a_late_node_that_never_gets_ready_ends_the_run(write_scenario, tmp_path, fake_env):
    text = LATE.replace('ready_probe = "test -f {workdir}/daemon.t"',
                        'ready_probe = "test {node} = a"').replace('time_limit_s = 20', 'time_limit_s = 20\nready_timeout_s = 1')
    out = tmp_path / "out"
    proc = run_runner(write_scenario(text), out, env=fake_env)
    assert proc.returncode == 1
    result = json.loads((out / "late" / "default" / "s" / "seed-1" / "result.json").read_text())
    assert result["status"] == "not-ready" and "late node(s) b" in result["reason"]


def test_start_delay_selectors_are_checked(write_scenario):
    with pytest.raises(errors.ScenarioError, match=r"nodes.start_delay_s.zz"):
        scenario.load(write_scenario(LATE.replace("b = 1.5", "zz = 1.5")))
    with pytest.raises(errors.ScenarioError, match=r"already has a start delay"):
        scenario.load(write_scenario(LATE.replace("b = 1.5", 'b = 1.5\n"*" = 2')))
