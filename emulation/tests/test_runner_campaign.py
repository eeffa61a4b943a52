"""Campaigns against the fake emulator: result files, CSV, parallel runs,
time limits, failures, and teardown on SIGINT."""

import csv
import json
import os
import signal
import subprocess
import time

from conftest import fake_log, pid_alive, run_runner, runner_argv

CAMPAIGN = """
name = "camp"
time_limit_s = 20
seeds = [1, 2, 3]
[nodes]
names = ["src", "r1", "r2"]
[nodes.roles]
publisher = ["src"]
subscriber = ["r1", "r2"]
[matrix]
capacity_kbps = [56, 256]
[profiles.quick]
seeds = [1, 2]
[topology]
kind = "full"
capacity_bps = "{capacity_kbps*1024}"
reliability = 0.9
[emulator]
queue_packets = 20
radio_bps = "{capacity_kbps*1024}"
[systems.dissem.roles.all]
daemon = "echo $$ > {workdir}/daemon.pid; exec sleep 60"
ready_probe = "test -f {workdir}/daemon.pid"
collect = "echo '{{\\"traffic\\": {{\\"sent_bytes\\": {node_id}000}}, \\"daemon_alive\\": '$(kill -0 $(cat {workdir}/daemon.pid) && echo true || echo false)'}}'"
[systems.dissem.roles.publisher]
command = "echo '{{\\"sent_bytes\\": {capacity_kbps*10}, \\"node\\": \\"{node}\\"}}'"
start_delay_s = 0.1
[systems.dissem.roles.subscriber]
command = "echo progress; echo '{{\\"delivery_time_s\\": {node_id}.5, \\"bytes\\": 100, \\"complete\\": true, \\"address\\": \\"{address}\\", \\"publisher\\": \\"{publisher_address}\\", \\"subs\\": \\"{subscriber_ids}\\", \\"sockdir\\": \\"{sockdir}\\", \\"sockdir_ok\\": \\"'$(test -d {sockdir} && echo yes)'\\"}}'"
[systems.norm.roles.subscriber]
command = "echo '{{\\"delivery_time_s\\": {seed}}}'"
"""


def read_csv(out):
    files = sorted((out / "camp").glob("campaign-*.csv"))
    assert len(files) == 1
    with open(files[0]) as f:
        return list(csv.DictReader(f))


def test_campaign_2_cells_2_seeds_2_systems_jobs_2(write_scenario, tmp_path, fake_env):
    path = write_scenario(CAMPAIGN)
    out = tmp_path / "out"
    proc = run_runner(path, out, "--profile", "quick", "--jobs", "2", env=fake_env)
    assert proc.returncode == 0, proc.stderr
    assert "8 runs, 2 at a time" in proc.stderr and "[8/8]" in proc.stderr

    results = {}
    for cell in ("capacity_kbps-56", "capacity_kbps-256"):
        for system in ("dissem", "norm"):
            for seed in (1, 2):
                r = json.loads((out / "camp" / cell / system / f"seed-{seed}" / "result.json").read_text())
                results[(cell, system, seed)] = r
                assert r["status"] == "ok" and r["seed"] == seed and r["system"] == system
                assert r["emulator"]["exit_code"] == 0 and r["emulator"]["cleanup_exit_code"] == 0
                assert r["emulator"]["stats"]["seed"] == seed  # --seed reached the emulator
                assert "--seed" in r["emulator"]["argv"]
    assert len(results) == 8

    r = results[("capacity_kbps-256", "dissem", 2)]
    argv = r["emulator"]["argv"]
    assert argv[argv.index("--queue-packets") + 1] == "20"
    assert argv[argv.index("--radio-bps") + 1] == "262144"
    assert "--default-disconnected" not in argv  # full topology
    nodes = {n["name"]: n for n in r["nodes"]}
    assert nodes["src"]["result"] == {"sent_bytes": 2560, "node": "src"}
    assert nodes["r2"]["result"]["address"] == nodes["r2"]["address"]
    assert nodes["r2"]["result"]["publisher"] == nodes["src"]["address"]
    assert nodes["r2"]["result"]["subs"] == "2,3"
    # A short directory for Unix sockets existed during the run and is gone after it.
    sockdir = nodes["r2"]["result"]["sockdir"]
    assert nodes["r2"]["result"]["sockdir_ok"] == "yes" and len(sockdir) < 40
    assert r["prefix"] in sockdir and not os.path.exists(sockdir)
    # collect ran after the commands, while the daemons were still up
    assert nodes["r1"]["collected"] == {"traffic": {"sent_bytes": 2000}, "daemon_alive": True}
    daemon = [p for p in nodes["r1"]["processes"] if p["kind"] == "daemon"][0]
    assert daemon["killed"] and daemon["exit_code"] is None and daemon["signal"] == signal.SIGTERM
    rundir = out / "camp" / "capacity_kbps-256" / "dissem" / "seed-2"
    assert (rundir / "scenario.eel").read_text().startswith("0 nem:1 commeffect nem:2,0,0,10,0,262144,262144")
    assert (rundir / "logs" / "r1.subscriber.command.stdout").read_text().startswith("progress\n")

    # Distinct prefixes for all runs; parallel runs used distinct subnets.
    prefixes = {r["prefix"] for r in results.values()}
    assert len(prefixes) == 8 and all(len(p) <= 8 and p.isalnum() and p.islower() for p in prefixes)
    assert {r["subnet"] for r in results.values()} == {"10.77.0.0/24", "10.77.1.0/24"}
    starts = [e for e in fake_log(tmp_path) if e["event"] == "start"]
    cleanups = {e["prefix"] for e in fake_log(tmp_path) if e["event"] == "cleanup"}
    assert len(starts) == 8 and cleanups == prefixes
    # The engine gets the dissem-sim the runner expands with (an engine that
    # expands the scenario itself, as dissem-emane does, finds it whatever its cwd).
    assert all(os.path.isabs(e["dissem_sim"]) and e["dissem_sim"].endswith("dissem-sim") for e in starts), starts

    rows = read_csv(out)
    assert len(rows) == 8
    assert {(row["cell_id"], row["system"], row["seed"]) for row in rows} == \
        {(c, s, str(seed)) for c, s, seed in results}
    row = next(x for x in rows if x["cell_id"] == "capacity_kbps-56" and x["system"] == "dissem"
               and x["seed"] == "1")
    assert row["capacity_kbps"] == "56" and row["status"] == "ok" and row["profile"] == "quick"
    assert row["subscriber.delivery_time_s.max"] == "3.5"     # times: max over nodes
    assert row["subscriber.bytes.sum"] == "200"               # counts: summed
    assert row["subscriber.complete.min"] == "1"              # every node complete
    assert row["subscriber.nodes_with_result"] == "2"
    assert row["publisher.sent_bytes.sum"] == "560"
    assert row["emu.nodes.tx_packets.sum"] == "60"
    assert row["all.collect.traffic.sent_bytes.sum"] == "6000"
    assert row["all.collect.daemon_alive.sum"] == "3"      # booleans count as 0/1


def test_hanging_command_times_out_and_nothing_is_left(write_scenario, tmp_path, fake_env):
    path = write_scenario("""
        name = "hang"
        time_limit_s = 1.5
        stop_grace_s = 0.5
        [nodes]
        count = 2
        [topology]
        kind = "line"
        [systems.x.roles.all]
        daemon = "sleep 300 & echo $! > {workdir}/bg.pid; echo $$ > {workdir}/daemon.pid; wait"
        command = "trap '' TERM; sleep 200 & echo $! > {workdir}/child.pid; echo $$ > {workdir}/cmd.pid; wait"
    """)
    out = tmp_path / "out"
    started = time.monotonic()
    proc = run_runner(path, out, env=fake_env)
    elapsed = time.monotonic() - started
    assert proc.returncode == 1
    r = json.loads((out / "hang" / "default" / "x" / "seed-1" / "result.json").read_text())
    assert r["status"] == "timeout" and "time_limit_s 1.5 reached" in r["reason"]
    assert elapsed < 15
    for node in ("n1", "n2"):
        workdir = out / "hang" / "default" / "x" / "seed-1" / "nodes" / node
        for name in ("bg.pid", "daemon.pid", "child.pid", "cmd.pid"):
            pid = int((workdir / name).read_text())
            assert not pid_alive(pid), f"{node}/{name} {pid} still running"
    cmd = [p for n in r["nodes"] for p in n["processes"] if p["kind"] == "command"]
    assert all(p["killed"] and p["signal"] == signal.SIGKILL for p in cmd)  # ignored SIGTERM
    events = [e["event"] for e in fake_log(tmp_path)]
    assert events == ["start", "ready", "stopped", "cleanup"]
    row = read_csv_generic(out / "hang")
    assert row["status"] == "timeout"


def read_csv_generic(d):
    with open(next(d.glob("campaign-*.csv"))) as f:
        return next(csv.DictReader(f))


def test_sigint_tears_everything_down(write_scenario, tmp_path, fake_env):
    path = write_scenario("""
        name = "intr"
        time_limit_s = 60
        seeds = [1, 2]
        [nodes]
        count = 2
        [systems.x.roles.all]
        daemon = "echo $$ > {workdir}/daemon.pid; exec sleep 300"
        command = "echo $$ > {workdir}/cmd.pid; exec sleep 300"
    """)
    out = tmp_path / "out"
    proc = subprocess.Popen(runner_argv(path, out, "--jobs", "2"), env=fake_env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        pid_files = [out / "intr" / "default" / "x" / f"seed-{s}" / "nodes" / n / "cmd.pid"
                     for s in (1, 2) for n in ("n1", "n2")]
        deadline = time.monotonic() + 20
        while not all(p.exists() and p.read_text().strip() for p in pid_files):
            assert time.monotonic() < deadline, "node commands never started"
            assert proc.poll() is None, proc.communicate()
            time.sleep(0.05)
        pids = [int(p.read_text()) for p in pid_files]
        pids += [int((p.parent / "daemon.pid").read_text()) for p in pid_files]
        proc.send_signal(signal.SIGINT)
        _, stderr = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, stderr
    assert "SIGINT: stopping every run" in stderr and "Traceback" not in stderr
    for pid in pids:
        assert not pid_alive(pid)
    log = fake_log(tmp_path)
    started = {e["prefix"] for e in log if e["event"] == "start"}
    assert len(started) == 2
    assert {e["prefix"] for e in log if e["event"] == "cleanup"} == started
    assert {e["prefix"] for e in log if e["event"] == "stopped"} == started
    for s in (1, 2):
        r = json.loads((out / "intr" / "default" / "x" / f"seed-{s}" / "result.json").read_text())
        assert r["status"] == "interrupted"
    for e in log:
        if e["event"] == "start":
            assert not pid_alive(e["pid"])


def test_emulator_failure_stops_campaign_unless_keep_going(write_scenario, tmp_path, fake_env):
    path = write_scenario("""
        name = "emufail"
        time_limit_s = 5
        seeds = [1, 2]
        [nodes]
        count = 2
        [systems.x.roles.all]
        command = "true"
    """)
    env = dict(fake_env, FAKE_EMU_FAIL="1")
    proc = run_runner(path, tmp_path / "out", "--jobs", "1", env=env)
    assert proc.returncode == 1
    assert "1 emulator-failed" in proc.stderr and "runs not started" in proc.stderr
    r = json.loads((tmp_path / "out" / "emufail" / "default" / "x" / "seed-1" / "result.json").read_text())
    assert r["status"] == "emulator-failed" and "before its ready line" in r["reason"]
    assert [e["event"] for e in fake_log(tmp_path)] == ["start", "cleanup"]
    proc = run_runner(path, tmp_path / "out2", "--jobs", "1", "--keep-going", env=env)
    assert "2 emulator-failed" in proc.stderr


def test_probe_never_ready_and_failed_command(write_scenario, tmp_path, fake_env):
    path = write_scenario("""
        name = "probe"
        time_limit_s = 5
        ready_timeout_s = 0.6
        [nodes]
        count = 2
        [matrix]
        mode = ["never-ready", "fails"]
        [systems.x.roles.all]
        daemon = "exec sleep 30"
        ready_probe = "test {mode} = fails"
        command = "echo '{{\\"x\\": 1}}'; exit 3"
    """)
    proc = run_runner(path, tmp_path / "out", "--keep-going", env=fake_env)
    assert proc.returncode == 1
    base = tmp_path / "out" / "probe"
    r1 = json.loads((base / "mode-never-ready" / "x" / "seed-1" / "result.json").read_text())
    assert r1["status"] == "not-ready" and "n1/all" in r1["reason"]
    r2 = json.loads((base / "mode-fails" / "x" / "seed-1" / "result.json").read_text())
    assert r2["status"] == "failed" and "n1/all exited 3" in r2["reason"]
    assert r2["nodes"][0]["result"] == {"x": 1}


def test_dead_daemon_is_an_error(write_scenario, tmp_path, fake_env):
    path = write_scenario("""
        name = "dd"
        time_limit_s = 10
        [nodes]
        count = 2
        [systems.x.roles.all]
        daemon = "echo boom >&2; exit 4"
        command = "sleep 5"
    """)
    started = time.monotonic()
    proc = run_runner(path, tmp_path / "out", env=fake_env)
    assert proc.returncode == 1 and time.monotonic() - started < 8
    r = json.loads((tmp_path / "out" / "dd" / "default" / "x" / "seed-1" / "result.json").read_text())
    assert r["status"] == "error" and "exited with code 4" in r["reason"]


def test_dry_run_prints_eel_and_commands(write_scenario, tmp_path, fake_env):
    path = write_scenario(CAMPAIGN)
    proc = run_runner(path, tmp_path / "out", "--dry-run", "--cell", "capacity_kbps-56", "--seeds", "7",
                      "--systems", "dissem", env=fake_env)
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout
    assert "==== cell capacity_kbps-56 (capacity_kbps=56), seed 7" in text
    assert "0 nem:1 commeffect nem:2,0,0,10,0,57344,57344 nem:3,0,0,10,0,57344,57344" in text
    assert "--seed 7" in text and "--radio-bps 57344" in text
    assert "node 2 r1 (10.77.0.2, emu0)" in text
    assert '"sent_bytes": 560' in text
    assert not (tmp_path / "out").exists() and fake_log(tmp_path) == []
