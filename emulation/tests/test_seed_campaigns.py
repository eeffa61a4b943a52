"""The seed-002/003/004 campaigns' quick profiles end to end, all five at
once (each on its own subnets): real dissemd, dissem-norm and dissem-tcp in
network namespaces behind dissem-emu (half-duplex HF channel, satcom delay,
random outages, a lossy jittery link), then their report pages. About two
minutes. Needs root; see root_tests.py."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from root_tests import build_dir, require_root  # noqa: E402

require_root("seed 002/003/004 campaign tests")

REPO = Path(__file__).resolve().parents[2]
BUILD = REPO / build_dir()
BIN_DIRS = [BUILD / "src", BUILD / "emulation/baselines/norm", BUILD / "emulation/baselines/tcp"]
CAMPAIGNS = ["seed004-hf-2nodes", "seed004-hf-3nodes", "seed004-satcom", "seed003-disconnections",
             "seed002-sensors"]


# The five campaigns run once, in the module-scoped fixture: under pytest-xdist every test
# here goes to one worker (conftest.py, ONE_WORKER_MODULES).
@pytest.fixture(scope="module")
def campaigns(tmp_path_factory):
    out = tmp_path_factory.mktemp("seed-campaigns")
    procs = {}
    for k, name in enumerate(CAMPAIGNS):
        argv = [sys.executable, str(REPO / "emulation/run"), str(REPO / "emulation/scenarios" / f"{name}.toml"),
                "--profile", "quick", "--jobs", "2", "--keep-going", "--out", str(out),
                "--subnet-base", f"10.{120 + k}.0.0/16", "--emu", str(BUILD / "emulation/emu/dissem-emu")]
        for d in BIN_DIRS:
            argv += ["--bin-dir", str(d)]
        procs[name] = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    codes = {}
    for name, proc in procs.items():
        _, err = proc.communicate(timeout=900)
        codes[name] = (proc.returncode, err[-2000:])
    results = {name: [json.loads(p.read_text()) for p in sorted((out / name).rglob("result.json"))]
               for name in CAMPAIGNS}
    return out, codes, results


def by_system(results):
    return {r["system"]: r for r in results}


def node_result(run, name):
    return next(n["result"] for n in run["nodes"] if n["name"] == name)


@pytest.mark.parametrize("name", CAMPAIGNS)
def test_every_quick_run_is_ok(campaigns, name):
    _, codes, results = campaigns
    assert codes[name][0] == 0, codes[name][1]
    assert len(results[name]) == 2 and all(r["status"] == "ok" for r in results[name])


@pytest.mark.parametrize("name,receivers", [("seed004-hf-2nodes", ["rx1"]), ("seed004-hf-3nodes", ["rx1", "rx2"])])
def test_hf_runs_go_through_the_simplex_channel_and_dissem_delivers_tracks(campaigns, name, receivers):
    _, _, results = campaigns
    dissem = by_system(results[name])["dissem"]
    stats = dissem["emulator"]["stats"]
    assert stats["config"]["half_duplex"] == {"bps": 2400, "turnaround_s": 1, "max_hold_s": 30}
    # Receivers answer (beacons, requests), so the channel changes hands.
    assert stats["run"]["half_duplex_turnarounds"] > 0
    publisher = node_result(dissem, "sender")
    assert publisher["offer_for_s"] == 40 and publisher["messages_published"] > 0
    for rx in receivers:
        assert node_result(dissem, rx)["messages"], f"{rx} received no track"


def test_satcom_link_has_its_delay(campaigns):
    _, _, results = campaigns
    dissem = by_system(results["seed004-satcom"])["dissem"]
    latencies = [m["latency_s"] for m in node_result(dissem, "rx1")["messages"]]
    assert latencies and min(latencies) >= 0.3


def test_disconnections_cut_both_systems_alike(campaigns):
    _, _, results = campaigns
    runs = by_system(results["seed003-disconnections"])
    eels = {s: (Path(r["emulator"]["argv"][r["emulator"]["argv"].index("--eel") + 1])).read_text()
            for s, r in runs.items()}
    assert eels["dissem"] == eels["tcp"]  # the same seed: the same outages
    assert ",0,0,100,0," in eels["dissem"]
    for system, run in runs.items():
        lost = sum(l["lost"] for l in run["emulator"]["stats"]["links"])
        assert lost > 0, f"{system}: no frame met an outage"
        assert node_result(run, "server")["messages"], f"{system} received no update"


def test_sensor_stream_is_nearly_complete_for_both(campaigns):
    _, _, results = campaigns
    for system, run in by_system(results["seed002-sensors"]).items():
        got = len(node_result(run, "client")["messages"])
        assert got >= 270, f"{system}: {got} of 300 messages"


def test_the_report_has_a_page_per_seed(campaigns, tmp_path):
    out, _, _ = campaigns
    proc = subprocess.run([sys.executable, str(REPO / "emulation/report"), str(out), "--out", str(tmp_path)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    for page in ("seed002.md", "seed003.md", "seed004.md"):
        assert (tmp_path / page).exists()
    assert "| 2400 | dissem |" in (tmp_path / "seed004.md").read_text()
