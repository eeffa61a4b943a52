"""The experiments on EMANE itself (emulation/run --engine emane): EMANE is
there after set-up, real dissemd processes deliver a file byte for byte
through NEMs with the comm effect shim, and the paper's baseline runs with
dissem and NORM. Needs root; see root_tests.py."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from delivery_checks import assert_file_delivered  # noqa: E402
from root_tests import build_dir, require_root  # noqa: E402

require_root("EMANE engine tests")

REPO = Path(__file__).resolve().parents[2]
BUILD = REPO / build_dir()
sys.path.insert(0, str(REPO / "emulation"))

from emane_engine import control_network, installation  # noqa: E402


def _emane():
    try:
        return installation.find()
    except installation.EmaneNotFound as e:
        pytest.fail(f"{e} (scripts/setup.sh runs scripts/setup-emane.sh)", pytrace=False)


def run_on_emane(scenario: str, out: Path, *extra: str, timeout: float = 900) -> list[dict]:
    argv = [sys.executable, str(REPO / "emulation/run"), str(REPO / "emulation/scenarios" / scenario),
            "--engine", "emane", "--out", str(out), "--keep-going", *extra]
    for d in ("src", "emulation/baselines/norm"):
        argv += ["--bin-dir", str(BUILD / d)]
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    results = []
    for path in sorted(out.rglob("result.json")):
        result = json.loads(path.read_text())
        result["_dir"] = path.parent
        results.append(result)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return results


def test_emane_is_installed_after_set_up():
    found = _emane()
    assert "1.5" in found.version, found
    for program in (found.emane, found.eventservice):
        assert Path(program).exists(), program
    assert (found.dtd_dir / "platform.dtd").exists()
    # Its Python control port client loads under the system Python, as statistics.py uses it.
    probe = subprocess.run([found.emanesh[0], "-c", "import emane.shell"], env=found.env(),
                           capture_output=True, text=True, timeout=30)
    assert probe.returncode == 0, probe.stderr


def test_three_dissemd_nodes_at_20_percent_loss_on_emane_deliver_a_1mb_file_byte_identical(tmp_path):
    _emane()
    (result,) = run_on_emane("e2e-3nodes.toml", tmp_path)
    assert result["status"] == "ok", result.get("reason")
    assert result["engine"] == "emane"
    assert all(n["interface"] == "emane0" for n in result["nodes"])
    assert_file_delivered(result, ["sub1", "sub2"])
    # EMANE's own counters: the shims dropped about a fifth of what reached them.
    links = result["emulator"]["stats"]["totals"]["links"]
    assert links["offered"] > 1000
    assert 0.15 < links["lost"] / links["offered"] < 0.25, links
    mfrs = sum(n["collected"]["mfrs"]["sent"] for n in result["nodes"] if n["name"] != "pub")
    assert mfrs > 0
    # Nothing of the run is left behind.
    assert not control_network.owned_namespaces(result["prefix"])


def test_baseline_quick_profile_on_emane_with_dissem_and_norm(tmp_path):
    _emane()
    results = run_on_emane("baseline-1to3.toml", tmp_path, "--profile", "quick", "--systems", "dissem,norm")
    assert {r["system"] for r in results} == {"dissem", "norm"}
    for r in results:
        assert r["status"] == "ok", (r["cell_id"], r["system"], r.get("reason"))
        assert r["engine"] == "emane"
        for node in r["nodes"]:
            if "subscriber" in node["roles"]:
                res = node["result"]
                assert res.get("messages_completed", res.get("objects_completed")) == 1, (r["cell_id"], r["system"])
        # The bytes on the air come from EMANE's statistics.
        assert sum(n["bytes_sent"] for n in r["emulator"]["stats"]["nodes"]) > 819200


def test_six_nodes_split_over_two_emane_hosts_deliver_byte_identical_at_20_percent_loss(tmp_path):
    """EMANE's distributed mode on one machine: two namespaces act as hosts,
    each with its own control interface on the bridge and one emane holding
    three NEMs; one event service drives both."""
    _emane()
    (result,) = run_on_emane("e2e-6nodes.toml", tmp_path, "--emane-hosts", "2")
    assert result["status"] == "ok", result.get("reason")
    assert result["emulator"]["ready"]["hosts"] == {"1": [1, 2, 3], "2": [4, 5, 6]}
    platforms = sorted(p.name for p in (result["_dir"] / "emane").glob("platform-*.xml"))
    assert platforms == ["platform-host-1.xml", "platform-host-2.xml"]
    assert_file_delivered(result, [f"sub{i}" for i in range(1, 6)])
    # Frames crossed between the hosts' NEMs and within them, each link losing about a fifth.
    links = result["emulator"]["stats"]["totals"]["links"]
    assert 0.15 < links["lost"] / links["offered"] < 0.25, links
    assert all(n["frames_sent"] > 0 for n in result["emulator"]["stats"]["nodes"])
    assert not control_network.owned_namespaces(result["prefix"])
