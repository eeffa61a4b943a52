"""The seed-000 (Mockets message replacement) experiments: the shipped
scenarios and workload plans, and their report page, on synthetic results."""

import json
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from root_tests import build_dir, release_build_dir

REPO = Path(__file__).resolve().parents[2]
SCENARIOS = REPO / "emulation" / "scenarios"
PLANS = SCENARIOS / "seed000"
TCP_CANDIDATES = [REPO / tree() / "emulation/baselines/tcp/dissem-tcp" for tree in (build_dir, release_build_dir)]


def dry_run(name, *extra):
    proc = subprocess.run([sys.executable, str(REPO / "emulation" / "run"), str(SCENARIOS / name), "--dry-run",
                           *extra], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.mark.parametrize("name,experiments", [("seed000-replacement.toml", [1, 2, 3]),
                                              ("seed000-fluctuating.toml", [4])])
def test_every_run_reads_its_experiments_plan_on_the_slow_link(name, experiments):
    out = dry_run(name, "--profile", "full", "--seeds", "1")
    plans = set(re.findall(r"--plan (\S+)", out))
    assert plans == {str(PLANS / f"exp{e}.plan") for e in experiments}
    assert all(Path(p).is_file() for p in plans)
    for system in ("dissem-replace", "dissem-replace-source", "dissem", "tcp"):
        assert f"/{system}/seed-1" in out
    assert "--queue-packets 4" in out
    # Replacement on, off, and per source: the publisher's flags per system.
    assert "--tag-scheme stream" in out and "--tag-scheme source" in out and "--no-replace" in out
    assert "dissem-tcp sender --connect 10.77.0.2:5001" in out


def test_the_link_is_5_kbytes_a_second_and_dips_for_experiment_4():
    steady = dry_run("seed000-replacement.toml", "--profile", "quick")
    assert "0 nem:1 commeffect nem:2,0,0,0,0,40960,40960" in steady
    assert "engine.link_capacity_bps=38912" in steady  # 0.95 x 5 KB/s
    assert not re.search(r"^[1-9]\d* nem:", steady, re.M)  # no timed change
    varying = dry_run("seed000-fluctuating.toml", "--profile", "quick")
    for line in ("0 nem:1 commeffect nem:2,0,0,0,0,327680,327680", "50 nem:1 commeffect nem:2,0,0,0,0,40960,40960",
                 "60 nem:1 commeffect nem:2,0,0,0,0,327680,327680", "50 nem:2 commeffect nem:1,0,0,0,0,40960,40960"):
        assert line in varying
    assert "engine.link_capacity_bps=311296" in varying


@pytest.fixture(scope="module")
def tcp_binary():
    env = os.environ.get("DISSEM_TCP")
    if env:
        return env
    for path in TCP_CANDIDATES:
        if os.access(path, os.X_OK):
            return str(path)
    pytest.skip("no dissem-tcp: build the dissem-tcp target or set DISSEM_TCP")


@pytest.mark.parametrize("experiment,streams", [
    (1, {"position": (1000, 20)}),
    (2, {"position": (1000, 20), "sensor": (1000, 1)}),
    (3, {"position": (1000, 20), "image": (6, 1)}),
    (4, {"position": (650, 10)}),
])
def test_the_plans_parse_and_say_what_the_paper_did(tcp_binary, experiment, streams):
    # A receiver nobody connects to reads the plan and reports what it expected.
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.run([tcp_binary, "receiver", "--listen", f"127.0.0.1:{port}", "--plan",
                           str(PLANS / f"exp{experiment}.plan"), "--time-limit", "0.2"],
                          capture_output=True, text=True, timeout=20)
    assert proc.returncode == 4, proc.stderr
    result = json.loads(proc.stdout.splitlines()[-1])
    assert result["stopped_by"] == "no_sender"
    got = {name: (s["expected"], s["sources"]) for name, s in result["streams"].items()}
    assert got == streams


# -- the report ---------------------------------------------------------------------

START = 1000.0


def write_run(root, experiment, system, seed, streams, *, link=(100, 5), status="ok"):
    """streams: name -> (produced, sources, [(index, produced_at_s, latency_s)])."""
    scenario = "seed000-fluctuating" if experiment == 4 else "seed000-replacement"
    pub = {"system": "tcp" if system == "tcp" else "dissem", "role": "sender", "start_unix": START,
           "messages_published": sum(v[0] for v in streams.values()),
           "streams": {n: {"published": v[0], "bytes": v[0] * 1024} for n, v in streams.items()}}
    messages, summary = [], {}
    for name, (produced, sources, got) in streams.items():
        finals = {i % sources for i, _, _ in got if i + sources >= produced}
        summary[name] = {"expected": produced, "received": len(got), "sources": sources,
                         "final_updates_received": len(finals)}
        messages += [{"publisher": "p", "stream": name, "index": i, "bytes": 1024, "latency_s": lat,
                      "completed_unix": START + at + lat} for i, at, lat in got]
    sub = {"system": pub["system"], "role": "receiver", "messages_completed": len(messages),
           "expected": sum(v[0] for v in streams.values()), "streams": summary, "messages": messages}
    nodes = [{"id": 1, "name": "jbi", "roles": ["publisher"],
              "processes": [{"kind": "command", "role": "publisher", "exit_code": 0, "result": pub}]},
             {"id": 2, "name": "client", "roles": ["subscriber"],
              "processes": [{"kind": "command", "role": "subscriber", "exit_code": 0, "result": sub}]}]
    stats = {"nodes": [{"id": 1, "frames_sent": link[0], "bytes_sent": link[0] * 1000},
                       {"id": 2, "frames_sent": 10, "bytes_sent": 1000}],
             "links": [{"from": 1, "to": 2, "delivered": link[0], "queue_dropped": link[1]},
                       {"from": 2, "to": 1, "delivered": 10, "queue_dropped": 0}]}
    result = {"scenario": scenario, "cell_id": f"experiment-{experiment}", "cell": {"experiment": experiment},
              "system": system, "seed": seed, "status": status, "wall_s": 60.0, "nodes": nodes,
              "emulator": {"stats": stats}}
    d = root / scenario / f"experiment-{experiment}" / system / f"seed-{seed}"
    d.mkdir(parents=True)
    (d / "result.json").write_text(json.dumps(result))


def table_rows(page, heading):
    section = page.split(heading, 1)[1].split("\n### ", 1)[0]
    return [[c.strip() for c in line.strip("|").split("|")] for line in section.splitlines()
            if line.startswith("| ") and not line.startswith("| stream") and not line.startswith("| system")]


def run_report(results, out, reference):
    proc = subprocess.run([sys.executable, str(REPO / "emulation" / "report"), str(results), "--out", str(out),
                           "--reference", str(reference)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return (out / "seed000.md").read_text()


def test_report_gives_latency_figures_counts_and_the_papers_beside_them(tmp_path):
    results = tmp_path / "results"
    # Replacement: 4 of 40 updates of 4 sources arrive, the last of every source among them.
    write_run(results, 1, "dissem-replace", 1, {"position": (40, 4, [(36, 1.8, 0.1), (37, 1.85, 0.2),
                                                                     (38, 1.9, 0.3), (39, 1.95, 0.4)])})
    write_run(results, 1, "dissem-replace", 2, {"position": (40, 4, [(39, 1.95, 0.5)])})
    write_run(results, 1, "tcp", 1, {"position": (40, 4, [(i, i * 0.05, 1.0 + i) for i in range(10)])},
              link=(80, 12))
    write_run(results, 3, "dissem", 1, {"position": (20, 20, [(0, 0.0, 0.2)]),
                                        "image": (2, 1, [(0, 0.0, 1.0), (1, 10.0, 1.5)])})
    write_run(results, 3, "tcp", 1, {"position": (20, 20, []), "image": (2, 1, [(0, 0.0, 3.0)])})
    out = tmp_path / "out"
    page = run_report(results, out, tmp_path)  # no CSV there: the bundled paper figures
    rows = table_rows(page, "### Experiment 1")
    replace = next(r for r in rows if r[1] == "dissem-replace")
    # runs, produced, received (mean of 4 and 1), %, final updates, mean/median/p95/max ms, target
    assert replace[2:12] == ["2", "40", "2.5", "6.2", "2.5 / 4", "300", "300", "500", "500", "300 (met)"]
    tcp = next(r for r in rows if r[1] == "tcp")
    assert tcp[4] == "10.0" and tcp[6] == "0.0 / 4" and tcp[7] == "5500" and tcp[11] == ""
    mockets = next(r for r in rows if r[1] == "paper: Mockets (replacement)")
    assert mockets[3:6] == ["1000", "283", "28.3"] and mockets[7] == "528"
    assert any(r[1] == "paper: SCTP" and "without bound" in r[12] for r in rows)
    link = next(r for r in rows if r[0] == "tcp" and len(r) == 4)
    assert link == ["tcp", "1/1", "80", "12"]
    assert "Images delivered per run (delivered/produced): dissem: 2/2 (every image); tcp: 1/2." in page
    exp3 = table_rows(page, "### Experiment 3")
    assert any(r[0] == "image" and r[1] == "paper: Mockets (replacement)" and r[7] == "3471" for r in exp3)
    for n in (1, 3):
        assert (out / f"seed000-experiment-{n}-latency.png").stat().st_size > 1000
    index = (out / "README.md").read_text()
    assert "[seed000: message replacement](seed000.md) (seed000-replacement): 5 runs, 5 ok" in index


def test_report_reads_the_reference_directory_first_and_marks_a_missed_target(tmp_path):
    results = tmp_path / "results"
    write_run(results, 4, "dissem-replace", 1, {"position": (10, 10, [(9, 0.9, 0.08)])})
    ref = tmp_path / "ref"
    ref.mkdir()
    (ref / "paper-seed000-replacement.csv").write_text(
        "experiment,stream,system,mean_latency_ms,messages_delivered,messages_produced,note\n"
        "4,position,mockets,41,,,from the reference directory\n")
    page = run_report(results, tmp_path / "out", ref)
    rows = table_rows(page, "### Experiment 4")
    assert rows[0][1] == "dissem-replace" and rows[0][7] == "80" and rows[0][11] == "40 (not met)"
    assert rows[1][1] == "paper: Mockets (replacement)" and rows[1][7] == "41"
    assert not any(r[1] == "paper: SCTP" for r in rows)
