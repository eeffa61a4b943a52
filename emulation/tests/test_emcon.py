"""Radio silence (EMCON, issue 32 section 5) on the emulator: the emcon
scenario's quick run (real dissemd in network namespaces behind dissem-emu,
two receivers silent from start-up, 10 % loss, 1 MB in 20 messages), its
page, and what the emulator counted at the silent nodes' radios. About 20
seconds. Needs root; see root_tests.py."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from root_tests import build_dir, require_root  # noqa: E402

require_root("EMCON emulator test")

REPO = Path(__file__).resolve().parents[2]
BUILD = REPO / build_dir()
sys.path.insert(0, str(REPO / "emulation"))
from reporting import emcon_report  # noqa: E402


# The campaign runs once, in the module-scoped fixture: under pytest-xdist every test
# here goes to one worker (conftest.py, ONE_WORKER_MODULES).
@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("emcon")
    argv = [sys.executable, str(REPO / "emulation/run"), str(REPO / "emulation/scenarios/emcon.toml"),
            "--profile", "quick", "--keep-going", "--out", str(out), "--subnet-base", "10.126.0.0/16",
            "--emu", str(BUILD / "emulation/emu/dissem-emu"), "--bin-dir", str(BUILD / "src")]
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    results = [json.loads(p.read_text()) for p in sorted((out / "emcon").rglob("result.json"))]
    assert len(results) == 1 and results[0]["status"] == "ok", results
    return out, results[0]


def test_the_silent_nodes_put_not_one_frame_on_the_air(run):
    _, result = run
    stats = result["emulator"]["stats"]
    by_id = {n["id"]: n for n in stats["nodes"]}
    silent = [n for n in result["nodes"] if "silent" in n["roles"]]
    assert len(silent) == 2
    for n in silent:
        assert by_id[n["id"]]["frames_sent"] == 0 and by_id[n["id"]]["bytes_sent"] == 0, by_id[n["id"]]
        assert n["collected"]["silent"] is True
    publisher = next(n for n in result["nodes"] if "publisher" in n["roles"])
    assert by_id[publisher["id"]]["frames_sent"] > 0


def test_silent_receivers_decode_from_the_first_pass(run):
    _, result = run
    figures = emcon_report.run_figures(result)
    assert figures["expected"] == 40
    assert figures["delivered"] == 40, figures
    # The publisher's counters: one block per message, parity at least the binomial bound's.
    k = round(figures["source_per_message"])
    assert figures["parity_per_message"] >= emcon_report.binomial_parity(k, 0.1, 0.999)


def test_the_page_gives_the_verdicts_and_the_bound(run, tmp_path):
    out, result = run
    page = emcon_report.section([result], tmp_path)
    assert "| 0 bytes from the silent nodes (emulator) | 0 (most in a run) | met |" in page
    assert "**The bound.**" in page
