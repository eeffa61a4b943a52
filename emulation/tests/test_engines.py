"""The engine switch (--engine dissem-emu | emane) without root: every
scenario key has a realisation or a refusal on each engine, refusals name
the key before any run starts, and the EMANE engine's link mapping."""

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import EMULATION, RUN, run_runner
from runner import eel, engines, scenario, topology
from runner.matrix import expand as expand_matrix
from runner.scenario import EmulatorSpec

from runner import emane_links  # noqa: E402

BASE = """
name = "eng"
time_limit_s = 60
[nodes]
names = ["a", "b", "c"]
[matrix]
shared = [0, 1]
[topology]
kind = "full"
capacity_bps = 262144
reliability = 0.9
{topology}
[emulator]
{emulator}
[systems.s.roles.all]
command = "true"
"""


def load(write_scenario, emulator="", topology_text=""):
    return scenario.load(write_scenario(BASE.format(emulator=emulator, topology=topology_text)))


def cells(sc):
    return expand_matrix(sc.matrix)


def test_every_emulator_and_link_key_has_a_row_in_the_engine_table():
    names = " ".join(k.name for k in engines.KEYS)
    for f in dataclasses.fields(EmulatorSpec):
        assert f.name in names, f"[emulator] {f.name} has no row in runner/engines.py KEYS"
    for key in topology.LINK_KEYS + ("default_disconnected", "partition_at_s", "gilbert", "eel"):
        assert key in names, f"[topology] {key} has no row in runner/engines.py KEYS"
    for section in ("[[topology.override]]", "[[topology.event]]", "[[topology.outage]]"):
        assert section in names
    # A refused key says why; a realised one says how.
    for k in engines.KEYS:
        assert k.emu and (k.emane or k.refusal) and (k.rfpipe or k.rfpipe_refusal), k


def test_the_readme_prints_the_engine_table_as_the_code_has_it():
    readme = (EMULATION / "README.md").read_text()
    assert engines.markdown_table() in readme, "emulation/README.md: paste engines.markdown_table() under 'Engines'"


def test_the_papers_model_maps_to_emane(write_scenario):
    sc = load(write_scenario, "queue_packets = 50\nradio_bps = 262144\nshared_channel_bps = \"{shared * 0}\"")
    assert engines.refusals(sc, cells(sc), [1], "emane") == []
    for name in ("baseline-1to3.toml", "tactical.toml", "e2e-3nodes.toml", "late-join.toml", "hostile-air.toml"):
        real = scenario.load(EMULATION / "scenarios" / name)
        quick = [c for c in cells(real) if all(c.params.get(k) in v for k, v in
                                              (real.profiles["quick"].matrix if "quick" in real.profiles else {}).items())]
        assert engines.refusals(real, quick or cells(real), [1], "emane") == [], name


@pytest.mark.parametrize("emulator,topology_text,key", [
    ("shared_channel_bps = \"{shared * 262144}\"", "", "[emulator] shared_channel_bps"),
    ("half_duplex_bps = 2400", "", "[emulator] half_duplex_bps"),
    ("gilbert = [0.01, 0.3, 80]", "", "[emulator] gilbert"),
    ("extra_args = [\"--rt-priority\", \"0\"]", "", "[emulator] extra_args"),
    ("", "gilbert = [0.01, 0.3, 80]", "[topology] gilbert"),
])
def test_keys_emane_cannot_express_are_refused_by_name(write_scenario, emulator, topology_text, key):
    sc = load(write_scenario, emulator, topology_text)
    lost = engines.refusals(sc, cells(sc), [1], "emane")
    assert len(lost) == 1 and key in lost[0] and "comm effect" in lost[0], lost
    assert engines.refusals(sc, cells(sc), [1], "dissem-emu") == []


def test_a_refused_scenario_stops_the_runner_before_any_run(write_scenario, tmp_path):
    path = write_scenario(BASE.format(emulator="shared_channel_bps = \"{shared * 262144}\"", topology=""))
    proc = run_runner(path, tmp_path / "out", "--engine", "emane", "--emu", "/bin/false")
    assert proc.returncode == 2
    assert "[emulator] shared_channel_bps" in proc.stderr and "cannot run on EMANE" in proc.stderr
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").rglob("result.json"))
    # Only the cell that needs the shared channel is refused: the other runs.
    ok = subprocess.run([sys.executable, str(RUN), str(path), "--engine", "emane", "--cell", "shared-0",
                         "--dry-run", "--out", str(tmp_path / "dry")], capture_output=True, text=True, timeout=60)
    assert ok.returncode == 0, ok.stderr
    assert "dissem-emane" in ok.stdout and "emane0" in ok.stdout


def test_dissem_emane_refuses_dissem_emu_options_it_cannot_express_by_name():
    for option in ("--shared-channel-bps", "--half-duplex-bps", "--gilbert", "--gilbert-link"):
        proc = subprocess.run([sys.executable, str(EMULATION / "dissem-emane"), "--prefix", "x",
                               "--nodes", "2", option, "1"], capture_output=True, text=True, timeout=30)
        assert proc.returncode == 2 and option in proc.stderr, proc.stderr
    # Off is not refused: the runner passes --shared-channel-bps 0 for the paper's own cells.
    proc = subprocess.run([sys.executable, str(EMULATION / "dissem-emane"), "--prefix", "x", "--nodes", "300",
                           "--shared-channel-bps", "0"], capture_output=True, text=True, timeout=30)
    assert proc.returncode == 2 and "--nodes" in proc.stderr and "shared" not in proc.stderr, proc.stderr


def test_a_radio_is_folded_into_each_link_from_its_node():
    events = [eel.LinkEvent(0.0, 1, 2, eel.LinkParams(loss_pct=10, unicast_bps=1000000, broadcast_bps=1000000)),
              eel.LinkEvent(0.0, 2, 1, eel.LinkParams(loss_pct=10, unicast_bps=100000, broadcast_bps=100000)),
              eel.LinkEvent(5.0, 1, 2, eel.LinkParams(loss_pct=100))]
    opts = emane_links.LinkOptions(nodes=3, queue_packets=50, radio_bps=262144, radio_bps_node={2: 500000})
    out = emane_links.emane_events(events, opts)
    at = {(e.time_s, e.sender, e.receiver): e.params for e in out}
    assert at[(0.0, 1, 2)].broadcast_bps == 262144          # the radio is slower than the link
    assert at[(0.0, 2, 1)].broadcast_bps == 100000          # the link is slower than node 2's radio
    assert at[(5.0, 1, 2)].broadcast_bps == 262144 and at[(5.0, 1, 2)].loss_pct == 100
    # Links the EEL leaves perfect still carry the sender's radio rate.
    assert at[(0.0, 1, 3)].broadcast_bps == 262144 and at[(0.0, 3, 1)].broadcast_bps == 262144
    assert at[(0.0, 2, 3)].broadcast_bps == 500000
    # The radio's 50-frame queue becomes each receiver's buffer period at its slowest incoming rate.
    periods = emane_links.receive_buffer_periods(out, opts)
    assert periods[1] == pytest.approx(50 * 1514 * 8 / 100000, rel=1e-6)
    assert periods[3] == pytest.approx(50 * 1514 * 8 / 262144, rel=1e-6)


def test_without_a_radio_or_queue_links_go_over_unchanged():
    events = [eel.LinkEvent(0.0, 1, 2, eel.LinkParams(latency_s=0.001, loss_pct=20))]
    opts = emane_links.LinkOptions(nodes=2, queue_packets=0)
    assert emane_links.emane_events(events, opts) == events
    assert emane_links.receive_buffer_periods(events, opts) == {1: 0.0, 2: 0.0}


def test_the_engine_files_name_the_installed_dtds_and_the_mapped_links(tmp_path):
    import ipaddress
    from runner import emane_files
    events = [eel.LinkEvent(0.0, 1, 2, eel.LinkParams(loss_pct=20, unicast_bps=8000, broadcast_bps=8000))]
    platforms = emane_files.write(tmp_path, Path("/opt/x/share/emane/dtd"), ipaddress.IPv4Network("10.9.0.0/24"),
                                     events, {1: 0.0, 2: 1.5}, False)
    assert sorted(platforms) == [1, 2]
    text = platforms[2].read_text()
    assert 'SYSTEM "file:///opt/x/share/emane/dtd/platform.dtd"' in text
    assert 'value="10.9.0.2"' in text and 'value="ctl0"' in text and "commeffect-nem-2.xml" in text
    assert 'name="receivebufferperiod" value="1.500000"' in (tmp_path / "commeffect-shim-2.xml").read_text()
    # 0 is written too: the shim's own default (1 s) is not dissem-emu's.
    assert 'name="receivebufferperiod" value="0.000000"' in (tmp_path / "commeffect-shim-1.xml").read_text()
    assert eel.read((tmp_path / "scenario.eel").read_text(), eel.EMANE_CONVENTION) == events


def test_the_rfpipe_model_takes_a_shared_channel_and_refuses_what_a_radio_cannot_do(write_scenario):
    shared = load(write_scenario, "shared_channel_bps = \"{shared * 262144}\"")
    assert engines.refusals(shared, cells(shared), [1], "emane", "rfpipe") == []
    dup = load(write_scenario, "", "dup_pct = 5")
    (lost,) = engines.refusals(dup, cells(dup), [1], "emane", "rfpipe")
    assert "[topology] dup_pct" in lost and "RF Pipe" in lost
    # A node without a radio of its own whose links differ in rate.
    mixed = load(write_scenario, "", "[[topology.override]]\nfrom = \"a\"\nto = \"b\"\ncapacity_bps = 9600")
    (lost,) = engines.refusals(mixed, cells(mixed), [1], "emane", "rfpipe")
    assert "[topology] capacity_bps" in lost and "node 1" in lost


def test_reliability_becomes_the_path_loss_the_rfpipe_curve_receives_it_at():
    from runner import emane_rfpipe as rf
    # Noise floor -110 dBm (1 MHz, 4 dB noise figure), 0 dBm transmitted; POR = 5 % per dB of SINR.
    assert rf.pathloss_db(0.9) == 92.0 and rf.pathloss_db(0.5) == 100.0
    assert rf.pathloss_db(1.0) == 80.0 and rf.pathloss_db(0.0) == rf.CUT_PATHLOSS_DB
    events = [eel.LinkEvent(0.0, 1, 2, eel.LinkParams(loss_pct=10)), eel.LinkEvent(0.0, 2, 1, eel.LinkParams(loss_pct=50)),
              eel.LinkEvent(7.5, 2, 1, eel.LinkParams(loss_pct=100))]
    text = rf.pathloss_eel(events, 3, default_disconnected=False)
    assert text.splitlines() == ["0 nem:1 pathloss nem:2,92,100 nem:3,80,80", "0 nem:2 pathloss nem:3,80,80",
                                 "7.5 nem:1 pathloss nem:2,92,200"]
    assert "nem:3,200,200" in rf.pathloss_eel(events, 3, default_disconnected=True)
