"""emulation/report on synthetic results shaped like emulation/run's output."""

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def run_report(results: Path, out: Path, reference: Path) -> None:
    proc = subprocess.run([sys.executable, str(REPO / "emulation" / "report"), str(results), "--out", str(out),
                           "--reference", str(reference)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr


def write_run(root: Path, scenario: str, cell: dict, system: str, seed: int, *, latency: float, frames: int,
              receivers: int = 3, complete: bool = True, publisher_result: bool = True, engine: str | None = None):
    start = 1000.0
    baseline = system.startswith("norm") or system in ("pgm", "jgroups")
    sender = ({"system": system, "role": "sender", "objects_enqueued": 1, "bytes_enqueued": 819200,
               "start_unix": start} if baseline else
              {"system": "dissem", "role": "sender", "messages_published": 1, "bytes_published": 819200,
               "start_unix": start})
    nodes = [{"id": 1, "processes": [{"kind": "command", "role": "publisher", "wait": False, "exit_code": 0,
                                      "result": sender if publisher_result else None}]}]
    for i in range(receivers):
        got = 1 if complete else 0
        msgs = [{"index": 0, "bytes": 819200, "latency_s": latency, "completed_unix": start + latency}] if got else []
        res = ({"system": system, "role": "receiver", "objects_completed": got, "expect": 1, "messages": msgs}
               if baseline else
               {"system": "dissem", "role": "receiver", "messages_completed": got, "expected": 1, "messages": msgs})
        nodes.append({"id": i + 2, "processes": [{"kind": "command", "role": "subscriber", "wait": True,
                                                  "exit_code": 0, "result": res}]})
    stats = {"nodes": [{"id": n["id"], "frames_sent": frames if n["id"] == 1 else 10,
                        "bytes_sent": (frames if n["id"] == 1 else 10) * 1000} for n in nodes]}
    result = {"scenario": scenario, "cell_id": "c", "cell": cell, "system": system, "seed": seed,
              "status": "ok" if complete else "timeout", "time_limit_s": 60 + 10 * 819200 * 8 / 262144, "wall_s": latency + 1, "nodes": nodes, "emulator": {"stats": stats}}
    if engine == "emane":
        result["engine"] = "emane"
        result["emulator"]["ready"] = {"ready": True, "engine": "emane", "engine_version": "1.5.3"}
    d = root / scenario / json.dumps(cell, sort_keys=True).replace(" ", "") / system / f"seed-{seed}"
    d.mkdir(parents=True)
    (d / "result.json").write_text(json.dumps(result))


def table_rows(page: str, prefix: str) -> list[list[str]]:
    return [[c.strip() for c in line.strip("|").split("|")] for line in page.splitlines() if line.startswith(prefix)]


def test_baseline_report_puts_all_four_systems_and_the_papers_columns_side_by_side(tmp_path):
    results = tmp_path / "results"
    ref = tmp_path / "ref"
    ref.mkdir()
    (ref / "paper-baseline-1to3.csv").write_text(
        "reliability_pct,capacity_kbps,norm_time_s,norm_bytes,disservice_time_s,disservice_bytes,"
        "openpgm_time_s,openpgm_bytes,jgroups_time_s,jgroups_bytes\n"
        "90,256,31.6,990000,41.2,1320000,,,44.0,1500000\n")
    cell = {"reliability_pct": 90, "capacity_kbps": 256}
    for seed in (1, 2):
        write_run(results, "baseline-1to3", cell, "dissem", seed, latency=30.0, frames=700)
        write_run(results, "baseline-1to3", cell, "norm", seed, latency=40.0, frames=800)
        write_run(results, "baseline-1to3", cell, "pgm", seed, latency=50.0, frames=900)
        # JGroups: one seed finished, the other hit the time limit.
        write_run(results, "baseline-1to3", cell, "jgroups", seed, latency=60.0, frames=1000, complete=seed == 1)
    out = tmp_path / "out"
    run_report(results, out, ref)
    page = (out / "baseline-1to3.md").read_text()
    assert "#N/A (as in the paper)" in page and "time limit" in page
    time_row, bytes_row = table_rows(page, "| 90 | 256 |")
    # ours, ARQ (not run), NORM, OpenPGM, JGroups; ours/NORM
    assert time_row[2:8] == ["30.0", "-", "40.0", "50.0", "60.0", "0.75"]
    # The erasure bound: 819,200 bytes at 90 % of 256 x 1024 bit/s.
    bound = 819200 * 8 / (0.9 * 256 * 1024)
    assert time_row[8:10] == [f"{bound:.1f}", f"{30.0 / bound:.2f}"]
    # The paper's NORM, DisService, OpenPGM (#N/A in its table) and JGroups.
    assert time_row[10:14] == ["31.6", "41.2", "#N/A", "44.0"]
    # bytes: (700 + 3*10) frames * (1000 - 14) IP bytes, and so on; completed runs only.
    assert bytes_row[2:7] == [f"{730 * 986 / 1e6:.3f}", "-", f"{830 * 986 / 1e6:.3f}", f"{930 * 986 / 1e6:.3f}",
                              f"{1030 * 986 / 1e6:.3f}"]
    assert bytes_row[8:12] == ["0.990", "1.320", "#N/A", "1.500"]
    assert bytes_row[12] == "2/2 / - / 2/2 / 2/2 / 1/2"
    for png in ("baseline-1to3-time.png", "baseline-1to3-bytes.png"):
        assert (out / png).stat().st_size > 1000
    assert "baseline-1to3" in (out / "README.md").read_text()
    # Every page names the engine its runs were emulated on.
    assert page.splitlines()[2].startswith("Engine: dissem-emu")


def test_a_page_of_emane_runs_names_emane_and_its_version(tmp_path):
    results, ref = tmp_path / "results", tmp_path / "ref"
    ref.mkdir()
    cell = {"reliability_pct": 90, "capacity_kbps": 256}
    write_run(results, "baseline-1to3", cell, "dissem", 1, latency=30.0, frames=700, engine="emane")
    write_run(results, "baseline-1to3", cell, "norm", 1, latency=40.0, frames=800, engine="emane")
    run_report(results, tmp_path / "out", ref)
    page = (tmp_path / "out" / "baseline-1to3.md").read_text()
    assert page.splitlines()[2] == "Engine: EMANE 1.5.3 (comm effect shim, one emane per node)."


def test_a_system_that_never_finishes_shows_na_as_in_the_paper(tmp_path):
    results = tmp_path / "results"
    cell = {"reliability_pct": 70, "capacity_kbps": 56}
    write_run(results, "baseline-1to1", cell, "dissem", 1, latency=100.0, frames=700, receivers=1, complete=False)
    write_run(results, "baseline-1to1", cell, "norm", 1, latency=90.0, frames=700, receivers=1)
    out = tmp_path / "out"
    run_report(results, out, tmp_path)
    time_row, bytes_row = table_rows((out / "baseline-1to1.md").read_text(), "| 70 |")
    assert time_row[2] == "#N/A" and time_row[4] == "90.0" and time_row[7] == "n/a"
    assert bytes_row[2] == "#N/A" and bytes_row[12] == "0/1 / - / 1/1 / - / -"


def test_baseline_report_sets_the_arq_system_and_the_shared_channel_apart(tmp_path):
    results = tmp_path / "results"
    for shared in (0, 1):
        cell = {"reliability_pct": 80, "capacity_kbps": 512, "shared_channel": shared}
        write_run(results, "baseline-1to1", cell, "dissem", 1, latency=20.0 + shared, frames=600, receivers=1)
        write_run(results, "baseline-1to1", cell, "dissem-arq", 1, latency=22.0 + shared, frames=700, receivers=1)
        write_run(results, "baseline-1to1", cell, "norm", 1, latency=25.0 + shared, frames=650, receivers=1)
    out = tmp_path / "out"
    run_report(results, out, tmp_path)
    page = (out / "baseline-1to1.md").read_text()
    assert "### Every node a radio of its own" in page and "### One shared channel" in page
    rows = table_rows(page, "| 80 | 512 |")
    time_rows = [r for r in rows if len(r) == 14]
    assert [r[2:5] for r in time_rows] == [["20.0", "22.0", "25.0"], ["21.0", "23.0", "26.0"]]
    assert time_rows[0][7] == "0.80"
    assert time_rows[1][10:14] == ["n/a"] * 4  # the paper never measured a shared channel
    for png in ("baseline-1to1-time.png", "baseline-1to1-shared-time.png"):
        assert (out / png).stat().st_size > 1000


def test_tactical_report_lists_every_system_with_success_and_overheads(tmp_path):
    results = tmp_path / "results"
    for system, got in (("dissem", True), ("dissem-arq", True), ("norm-rfec", True), ("norm-pfec", False)):
        write_run(results, "tactical", {"asymmetric": True, "sender_reliability_pct": 50, "message_size": 1024},
                  system, 1, latency=2.0, frames=100, complete=got)
    out = tmp_path / "out"
    run_report(results, out, tmp_path)
    page = (out / "tactical.md").read_text()
    rows = [line for line in page.splitlines() if line.startswith("| asymmetric |")]
    assert [r.split("|")[4].strip() for r in rows] == ["dissem", "dissem-arq", "norm-pfec", "norm-rfec"]
    pfec = [c.strip() for c in rows[2].strip("|").split("|")]
    assert pfec[6] == "0.0"  # success %
    for png in ("tactical-success.png", "tactical-latency-ecdf.png"):
        assert (out / png).stat().st_size > 1000


def test_a_run_without_publisher_result_counts_what_subscribers_expected(tmp_path):
    results = tmp_path / "results"
    write_run(results, "tactical", {"asymmetric": False, "sender_reliability_pct": 90, "message_size": 1024},
              "norm-rfec", 1, latency=2.0, frames=100, publisher_result=False)
    out = tmp_path / "out"
    run_report(results, out, tmp_path)
    page = (out / "tactical.md").read_text()
    row = [c.strip() for c in next(l for l in page.splitlines() if l.startswith("| symmetric |")).strip("|").split("|")]
    assert row[4:7] == ["1", "1.0", "100.0"]  # sent (from the subscribers' expect), received, success
    assert "1 of 1 runs (norm-rfec) have no publisher result" in page


def test_multihop_report_gives_delivery_ratio_transmissions_and_time_after_heal(tmp_path):
    results = tmp_path / "results" / "partition" / "c" / "anti-entropy" / "seed-1"
    results.mkdir(parents=True)
    ready = 5000.0
    subs = [{"id": i, "name": f"n{i}", "roles": ["subscriber"], "processes": [],
             "result": {"system": "dissem", "role": "receiver", "expected": 2, "messages_completed": 2,
                        "duplicates": 0, "messages": [{"index": 0, "bytes": 10, "latency_s": 1.0,
                                                       "completed_unix": ready + 12.0},
                                                      {"index": 1, "bytes": 10, "latency_s": 3.0,
                                                       "completed_unix": ready + 33.5}]}} for i in (2, 3)]
    result = {"scenario": "partition", "cell_id": "c", "cell": {"heal_at_s": 30}, "system": "anti-entropy",
              "seed": 1, "status": "ok", "nodes": subs,
              "emulator": {"ready_unix": ready, "stats": {"nodes": [{"id": 2, "frames_sent": 30},
                                                                    {"id": 3, "frames_sent": 10}]}}}
    (results / "result.json").write_text(json.dumps(result))
    out = tmp_path / "out"
    run_report(tmp_path / "results", out, tmp_path)
    row = next(l for l in (out / "partition.md").read_text().splitlines() if "anti-entropy" in l)
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[3] == "100.0"        # 4 of 4 delivered
    assert cells[4] == "2.00"         # mean latency
    assert cells[6] == "10.0"         # 40 frames / 4 deliveries
    assert cells[8] == "3.5 (1/1)"    # last delivery 3.5 s after the heal at 30 s


def test_multihop_report_gives_data_frames_per_delivery_and_the_ratio_to_flooding(tmp_path):
    for system, frames, data in (("flooding", 100, 80), ("subscriber-tree", 60, 32)):
        results = tmp_path / "results" / "grid" / "c" / system / "seed-1"
        results.mkdir(parents=True)
        traffic = {"data": {"sent": {"datagrams": data // 4}}, "forward": {"sent": {"datagrams": data // 2}},
                   "repair": {"sent": {"datagrams": data // 4}}, "beacon": {"sent": {"datagrams": 500}}}
        subs = [{"id": i, "name": f"n{i}", "roles": ["subscriber"], "processes": [],
                 "collected": {"traffic": traffic} if i == 2 else {},
                 "result": {"expected": 5, "messages_completed": 5, "duplicates": 0, "messages": []}}
                for i in (2, 3)]
        result = {"scenario": "grid", "cell_id": "c", "cell": {"reliability": 0.8}, "system": system, "seed": 1,
                  "status": "ok", "nodes": subs,
                  "emulator": {"ready_unix": 1.0, "stats": {"nodes": [{"id": 2, "frames_sent": frames}]}}}
        (results / "result.json").write_text(json.dumps(result))
    out = tmp_path / "out"
    run_report(tmp_path / "results", out, tmp_path)
    page = (out / "grid.md").read_text()
    rows = {c[1]: c for c in ([x.strip() for x in l.strip("|").split("|")] for l in page.splitlines()
                              if l.startswith("| reliability"))}
    assert rows["flooding"][6] == "10.0" and rows["flooding"][10:13] == ["1.00", "8.0", "1.00"]
    # 60 / 10 deliveries, 0.6x; 32 data frames / 10, 0.4x (beacons apart).
    assert rows["subscriber-tree"][6] == "6.0" and rows["subscriber-tree"][10:13] == ["0.60", "3.2", "0.40"]


def test_late_joiner_counts_in_delivery_and_join_time_but_not_in_latency(tmp_path):
    results = tmp_path / "results" / "late-join" / "c" / "default" / "seed-1"
    results.mkdir(parents=True)
    ready = 7000.0
    sub = {"id": 2, "name": "n2", "roles": ["subscriber"], "processes": [],
           "result": {"system": "dissem", "role": "receiver", "expected": 1, "messages_completed": 1, "duplicates": 0,
                      "messages": [{"index": 0, "bytes": 10, "latency_s": 0.5, "completed_unix": ready + 2.0}]}}
    # Its history was published 25 s before it joined: that latency is not the network's.
    late = {"id": 3, "name": "late", "roles": ["latecomer"], "processes": [],
            "result": {"system": "dissem", "role": "receiver", "expected": 2, "messages_completed": 1,
                       "duplicates": 0,
                       "messages": [{"index": 0, "bytes": 10, "latency_s": 25.0, "completed_unix": ready + 30.8}]}}
    result = {"scenario": "late-join", "cell_id": "c", "cell": {"join_at_s": 30}, "system": "default", "seed": 1,
              "status": "ok", "nodes": [sub, late],
              "emulator": {"ready_unix": ready, "stats": {"nodes": [{"id": 1, "frames_sent": 6}]}}}
    (results / "result.json").write_text(json.dumps(result))
    out = tmp_path / "out"
    run_report(tmp_path / "results", out, tmp_path)
    row = next(l for l in (out / "late-join.md").read_text().splitlines() if "| default |" in l)
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[3] == "66.7"   # 2 of 3 expected (the latecomer missed one)
    assert cells[4] == "0.50"   # the subscriber's latency only
    assert cells[6] == "3.0"    # 6 frames / 2 deliveries
    assert cells[8] == "n/a"    # not everything arrived: no join time
    assert (out / "late-join-delivery.png").stat().st_size > 0
    assert (out / "late-join-latency-ecdf.png").stat().st_size > 0

    # Once the latecomer has everything, the join time is from the join to its last delivery.
    late["result"]["messages_completed"] = 2
    (results / "result.json").write_text(json.dumps(result))
    run_report(tmp_path / "results", out, tmp_path)
    row = next(l for l in (out / "late-join.md").read_text().splitlines() if "| default |" in l)
    assert [c.strip() for c in row.strip("|").split("|")][8] == "0.8 (1/1)"


def _pcap(frames: list[tuple[float, bytes]]) -> bytes:
    """A classic little-endian pcap file of Ethernet frames."""
    import struct
    out = struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1)
    for t, frame in frames:
        out += struct.pack("<IIII", int(t), int(round((t - int(t)) * 1e6)), len(frame), len(frame)) + frame
    return out


def _udp_frame(src: str, kind: int, payload_len: int) -> bytes:
    """Ethernet + IPv4 + UDP carrying a dissem datagram of `kind` (prefix byte), `payload_len` bytes long."""
    import socket
    import struct
    payload = bytes([0x10 | kind]) + bytes(payload_len - 1)
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 28 + len(payload), 0, 0, 64, 17, 0, socket.inet_aton(src),
                     socket.inet_aton("10.9.0.255"))
    return bytes(12) + b"\x08\x00" + ip + struct.pack("!HHHH", 5000, 5000, 8 + len(payload), 0) + payload


def test_late_join_history_on_air_counts_what_every_node_sent_after_the_join_beacons_apart(tmp_path):
    run = tmp_path / "results" / "late-join" / "c" / "default" / "seed-1"
    (run / "pcap").mkdir(parents=True)
    origin = 7000.0
    server = {"id": 1, "name": "n1", "roles": ["subscriber"], "address": "10.9.0.1", "processes": [],
              "result": {"system": "dissem", "role": "receiver", "expected": 1, "messages_completed": 1,
                         "duplicates": 0, "messages": [{"index": 0, "bytes": 1000, "latency_s": 0.1,
                                                        "completed_unix": origin + 2.0}]}}
    late = {"id": 2, "name": "late", "roles": ["latecomer"], "address": "10.9.0.2", "processes": [],
            "result": {"system": "dissem", "role": "receiver", "expected": 2, "messages_completed": 2,
                       "bytes_completed": 2000, "duplicates": 0,
                       "messages": [{"index": 0, "bytes": 1000, "latency_s": 25.0, "completed_unix": origin + 30.5}]}}
    # n1: a fragment before the join (not counted), a beacon after it (not counted), three
    # 1000-byte data datagrams after it (one a duplicate). Its capture also holds what it
    # received from the latecomer, which counts once, in the latecomer's own capture.
    mfr = _udp_frame("10.9.0.2", 2, 72)
    (run / "pcap" / "n1.pcap").write_bytes(_pcap([
        (origin + 10.0, _udp_frame("10.9.0.1", 1, 972)),
        (origin + 30.1, _udp_frame("10.9.0.1", 3, 100)),
        (origin + 30.2, mfr),
        (origin + 30.3, _udp_frame("10.9.0.1", 1, 972)),
        (origin + 30.4, _udp_frame("10.9.0.1", 1, 972)),
        (origin + 30.5, _udp_frame("10.9.0.1", 1, 972))]))
    (run / "pcap" / "n2.pcap").write_bytes(_pcap([(origin + 30.2, mfr)]))
    result = {"scenario": "late-join", "cell_id": "c", "cell": {"join_at_s": 30}, "system": "default", "seed": 1,
              "status": "ok", "nodes": [server, late],
              "emulator": {"ready_unix": origin + 0.5, "stats": {"run": {"origin_unix_s": origin},
                                                                 "nodes": [{"id": 1, "frames_sent": 6}]}}}
    (run / "result.json").write_text(json.dumps(result))
    out = tmp_path / "out"
    run_report(tmp_path / "results", out, tmp_path)
    row = next(l for l in (out / "late-join.md").read_text().splitlines() if "| default |" in l)
    # (3 x 1000 data + 100 MFR) IP bytes over 2000 bytes of history.
    assert [c.strip() for c in row.strip("|").split("|")][9] == "1.55"


def test_a_scenario_with_an_attacker_reports_what_it_sent_and_what_was_refused(tmp_path):
    results = tmp_path / "results" / "hostile" / "c" / "attacked" / "seed-1"
    results.mkdir(parents=True)
    ready = 9000.0
    subs = [{"id": i, "name": f"n{i}", "roles": ["subscriber"], "processes": [],
             "collected": {"malformed": {"total": 40}, "integrity": {"total": 3}},
             "result": {"system": "dissem", "role": "receiver", "expected": 1, "messages_completed": 1,
                        "duplicates": 0, "content_errors": 0, "last_completion_s": 11.0 + i,
                        "messages": [{"index": 0, "bytes": 10, "latency_s": 1.0, "completed_unix": ready + 5}]}}
            for i in (2, 3)]
    rogue = {"id": 5, "name": "rogue", "roles": ["attacker"], "processes": [], "result": None}
    result = {"scenario": "hostile", "cell_id": "c", "cell": {"reliability": 0.9}, "system": "attacked", "seed": 1,
              "status": "ok", "nodes": subs + [rogue],
              "emulator": {"ready_unix": ready, "stats": {"nodes": [{"id": 2, "frames_sent": 8},
                                                                    {"id": 5, "frames_sent": 900}]}}}
    (results / "result.json").write_text(json.dumps(result))
    out = tmp_path / "out"
    run_report(tmp_path / "results", out, tmp_path)
    text = (out / "hostile.md").read_text()
    row = next(l for l in text.split("With an attacker")[1].splitlines() if "| attacked |" in l)
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[3] == "900"          # the attacker's frames, not the members'
    assert cells[4] == "80"           # malformed counted by the two daemons
    assert cells[5] == "6"            # integrity events
    assert cells[6] == "0"            # no forged byte delivered
    assert cells[7] == "14.0 (1/1)"   # the last subscriber's last message


def test_gateway_report_counts_distinct_contents_and_copies_each_way(tmp_path):
    run = tmp_path / "results" / "norm-gateway" / "c" / "bridge" / "seed-1"
    work = {name: run / "nodes" / name for name in ("norm-tx", "norm-rx", "gw1", "gw2", "pub", "sub")}
    for d in work.values():
        d.mkdir(parents=True)
    (work["pub"] / "m1").write_bytes(b"one")
    (work["pub"] / "m2").write_bytes(b"two")
    (work["sub"] / "inbox").mkdir()
    for i, data in enumerate([b"one", b"two", b"norm-a", b"norm-b", b"norm-b"]):  # norm-b came twice
        (work["sub"] / "inbox" / f"f{i}").write_bytes(data)
    (work["norm-rx"] / "objects").mkdir()
    (work["norm-rx"] / "objects" / "1.data").write_bytes(b"one")
    gateway = {"to_dissem": 2, "to_norm": 1, "loops_prevented": 4, "duplicates_suppressed": 1}
    nodes = [{"name": name, "workdir": f"nodes/{name}", "collected": gateway if name.startswith("gw") else {},
              "result": {"objects_enqueued": 2} if name == "norm-tx" else None} for name in work]
    result = {"scenario": "norm-gateway", "cell": {"reliability_pct": 80, "gateways": 2}, "system": "bridge",
              "seed": 1, "status": "ok", "nodes": nodes}
    (run / "result.json").write_text(json.dumps(result))
    out = tmp_path / "out"
    run_report(tmp_path / "results", out, tmp_path)
    (row,) = table_rows((out / "norm-gateway.md").read_text(), "| 80 |")
    assert row == ["80", "2", "ok", "2/2", "3", "1/2", "1", "4", "2", "8", "2"]


def write_ours_and_norm(root: Path, cell: dict, ours_s: float, norm_s: float, engine: str | None = None) -> None:
    """One baseline-1to3 run of dissem and one of NORM in `cell` (700 and 800 frames)."""
    write_run(root, "baseline-1to3", cell, "dissem", 1, latency=ours_s, frames=700, engine=engine)
    write_run(root, "baseline-1to3", cell, "norm", 1, latency=norm_s, frames=800, engine=engine)


def run_agreement_report(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(REPO / "emulation" / "report"), *args],
                          capture_output=True, text=True, timeout=120)


def test_engine_agreement_sets_each_cell_side_by_side_and_judges_the_targets(tmp_path):
    cell = {"reliability_pct": 90, "capacity_kbps": 256}
    emu, emane = tmp_path / "emu", tmp_path / "emane"
    write_ours_and_norm(emu, cell, 30.0, 40.0)
    # On EMANE: ours 4 % slower (within 5 %), NORM 10 % slower (not), so ours/NORM moves by 0.041.
    write_ours_and_norm(emane, cell, 31.2, 44.0, engine="emane")
    out = tmp_path / "emane.md"
    proc = run_agreement_report("--agreement", str(emu), str(emane), "--agreement-out", str(out))
    assert proc.returncode == 0, proc.stderr
    page = out.read_text()
    assert "dissem-emu (2 runs) and EMANE 1.5.3 (2 runs" in page
    assert "**1 of 2** (cell, system) pairs" in page and "**0 of 1** cells' ours/NORM" in page
    ours, norm = table_rows(page, "| 256 | 90 | dissem |")[0], table_rows(page, "| 256 | 90 | norm |")[0]
    assert ours[3:6] == ["30.00", "31.20", "+4.0 %"] and ours[-1] == "yes"
    assert norm[3:6] == ["40.00", "44.00", "+10.0 %"] and norm[-1] == "**no**"
    (ratio,) = table_rows(page, "| 256 | 90 | 0.750")
    assert ratio[2:] == ["0.750", "0.709", "-0.041", "**no**"]


def test_engine_agreement_sets_runs_from_before_a_correction_beside_todays_and_emanes(tmp_path):
    cell = {"reliability_pct": 70, "capacity_kbps": 256}
    before, emu, emane = tmp_path / "emu.before", tmp_path / "emu", tmp_path / "emane"
    write_ours_and_norm(before, cell, 36.0, 40.0)
    write_ours_and_norm(emu, cell, 38.0, 40.0)
    write_ours_and_norm(emane, cell, 38.0, 40.0, engine="emane")
    out = tmp_path / "emane.md"
    proc = run_agreement_report("--agreement", str(emu), str(emane), "--agreement-before", str(before),
                                "--agreement-out", str(out))
    assert proc.returncode == 0, proc.stderr
    page = out.read_text().split("## What the agreement corrected in dissem-emu")[1]
    (ours,) = table_rows(page, "| 256 | 70 | dissem |")
    assert ours[3:] == ["36.00", "38.00", "38.00", "+5.6 %", "+0.0 %"]
    (ratio,) = table_rows(page, "| 256 | 70 | 0.900")
    assert ratio[2:] == ["0.900", "0.950", "0.950", "+0.050", "+0.000"]
    missing = run_agreement_report("--agreement", str(emu), str(emane), "--agreement-before", str(tmp_path / "nowhere"),
                                   "--agreement-out", str(out))
    assert missing.returncode != 0 and "nowhere is not a directory" in missing.stderr


def test_shared_medium_page_sets_rfpipe_runs_beside_dissem_emu_with_success_time_and_bytes(tmp_path):
    cell = {"reliability_pct": 90, "capacity_kbps": 256, "shared_channel": 1}
    emu, rf = tmp_path / "emu", tmp_path / "rf"
    write_run(emu, "baseline-1to3", cell, "dissem", 1, latency=30.0, frames=700)
    write_run(rf, "baseline-1to3", cell, "dissem", 1, latency=36.0, frames=770, engine="emane")
    result = next(rf.rglob("result.json"))
    data = json.loads(result.read_text())
    data["emulator"]["ready"]["model"] = "rfpipe"
    result.write_text(json.dumps(data))
    out = tmp_path / "emane-shared-medium.md"
    proc = subprocess.run([sys.executable, str(REPO / "emulation" / "report"), "--shared-medium", "baseline", str(emu),
                           str(rf), "--shared-medium-out", str(out)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    page = out.read_text()
    assert "EMANE 1.5.3, RF Pipe (1 runs" in page
    (row,) = table_rows(page, "| capacity_kbps=256, reliability_pct=90, shared_channel=1 | dissem |")
    assert row[2:7] == ["100.0", "100.0", "30.00", "36.00", "+20.0 %"]
    assert row[9] == f"{100 * (800 / 730 - 1):+.1f} %"   # (770 + 3 x 10) frames against (700 + 3 x 10)


def test_many_receivers_page_holds_ours_to_the_faster_norm_and_judges_the_issues_targets(tmp_path):
    results = tmp_path / "results"
    ref = tmp_path / "ref"
    ref.mkdir()
    own = {"capacity_kbps": 256, "shared_channel": 0}
    shared = {"capacity_kbps": 256, "shared_channel": 1}
    for seed in (1, 2, 3):
        # Own radios: ours 36 s against NORM's 45 s without ACKs (50 s with): met (0.80).
        write_run(results, "baseline-1to10", own, "dissem", seed, latency=36.0, frames=1300, receivers=10)
        write_run(results, "baseline-1to10", own, "norm", seed, latency=50.0, frames=1400, receivers=10)
        write_run(results, "baseline-1to10", own, "norm-noack", seed, latency=45.0, frames=1500, receivers=10)
        # One channel: ours 50 s against NORM's 45 s: not met; ARQ never finishes.
        write_run(results, "baseline-1to10", shared, "dissem", seed, latency=50.0, frames=1400, receivers=10)
        write_run(results, "baseline-1to10", shared, "dissem-arq", seed, latency=0.0, frames=3000, receivers=10,
                  complete=False)
        write_run(results, "baseline-1to10", shared, "norm", seed, latency=45.0, frames=1400, receivers=10)
    run_report(results, tmp_path / "out", ref)
    page = (tmp_path / "out" / "baseline-1toN.md").read_text()
    assert "## baseline-1to10: 1 sender to 10 receivers, every node a radio of its own" in page
    own_rows, shared_rows = table_rows(page, "| 256 |")
    assert own_rows[1:8] == ["36.0", "-", "50.0", "45.0", "no ACK", "0.80", "met (<= 0.80)"]
    # Bytes (IP: 14 bytes of Ethernet off each 1000-byte frame): ours 1300 frames and the receivers'
    # 10 x 10, against NORM no-ACK's 1500 and the same 100.
    assert own_rows[8] == "1.380" and own_rows[10] == "1.578" and own_rows[11] == "0.88"
    assert own_rows[12] == "met (<= 0.95)"
    assert shared_rows[1:8] == ["50.0", "#N/A", "45.0", "-", "ACK", "1.11", "not met (<= 0.95)"]
    assert shared_rows[-2] == "3/3 / 0/3 / 3/3 / -"
    assert shared_rows[-1] == "0 / 0"
    index = (tmp_path / "out" / "README.md").read_text()
    assert "[baseline-1toN](baseline-1toN.md) (baseline-1to10): 18 runs" in index


def _emcon_result(seed: int, silent_frames: int, delivered: int) -> dict:
    def node(i, name, roles, result, collected):
        return {"id": i, "name": name, "roles": roles, "result": result, "collected": collected}
    publisher = node(1, "pub", ["all", "publisher"], {"messages_published": 20, "bytes_published": 1048580},
                     {"traffic": {"data": {"sent": {"datagrams": 1020, "bytes": 1439200}}},
                      "coding": {"parity_sent": 260}})
    silent = [node(i, f"s{i - 1}", ["all", "silent"],
                   {"expected": 20, "messages_completed": delivered if i == 2 else 20}, {"silent": True})
              for i in (2, 3)]
    stats = {"totals": {"nodes": {"bytes_sent": 1483075 + 54 * silent_frames}},
             "nodes": [{"id": 1, "frames_sent": 1034, "bytes_sent": 1483075},
                       {"id": 2, "frames_sent": silent_frames, "bytes_sent": 54 * silent_frames},
                       {"id": 3, "frames_sent": 0, "bytes_sent": 0}]}
    return {"scenario": "emcon", "seed": seed, "status": "ok",
            "cell": {"reliability": 0.9, "silent_receivers_loss": 0.1},
            "emulator": {"stats": stats}, "nodes": [publisher] + silent}


def test_emcon_page_judges_silence_delivery_and_air_and_gives_the_bound(tmp_path):
    sys.path.insert(0, str(REPO / "emulation"))
    from reporting import emcon_report
    quiet = emcon_report.section([_emcon_result(1, 0, 20), _emcon_result(2, 0, 20)], tmp_path)
    assert "| >= 99.9 % delivered during silence | 100.00 % (80/80) | met |" in quiet
    assert "| <= 1.25x the payload on the air | 1.414x (worst run) | missed |" in quiet
    assert "| 0 bytes from the silent nodes (emulator) | 0 (most in a run) | met |" in quiet
    # One block of k = 38 at 10 % loss needs 13 parity symbols for 0.999 (scipy's binomial tail).
    assert "k = 38 fragments" in quiet and "r = 13 parity symbols" in quiet
    assert "| 0.9 | 0.1 | 1 | ok | 40/40 | 0 | 0 | 1.414 | 38 | 13.0 |" in quiet
    # IGMP reports from a node, and one message short: both verdicts turn.
    loud = emcon_report.section([_emcon_result(1, 3, 19)], tmp_path)
    assert "| 0 bytes from the silent nodes (emulator) | 162 (most in a run) | missed |" in loud
    assert "| >= 99.9 % delivered during silence | 97.50 % (39/40) | missed |" in loud


def test_sim_forwarding_page_runs_the_simulator_and_judges_the_target(tmp_path):
    sys.path.insert(0, str(REPO / "emulation"))
    from reporting import sim_forwarding
    # A stand-in dissem-sim: transmissions by controller, everything delivered but
    # one message of subscription-aware's on the grid with every node subscribed.
    fake = tmp_path / "dissem-sim"
    fake.write_text(
        "#!/usr/bin/env python3\n"
        "import json, sys\n"
        "a = sys.argv[1:]\n"
        "f = a[a.index('--forwarding') + 1] if '--forwarding' in a else a[a.index('--system') + 1]\n"
        "tx = {'flooding': 100, 'subscription-aware': 90, 'subscriber-tree': 40, 'relay-set': 70}[f]\n"
        "lost = 1 if f == 'subscription-aware' and 'all' in a else 0\n"
        "print(json.dumps({'metrics': {'fragment_transmissions': tx, 'delivered': 20 - lost, 'expected': 20}}))\n")
    fake.chmod(0o755)
    out = sim_forwarding.write(fake, tmp_path / "sim-forwarding.md", REPO)
    page = out.read_text()
    assert "| grid 5x5, corner -> its row (20 x 1 KB) | 5.00 | 4.50 (0.90x) | 2.00 (0.40x) | 3.50 (0.70x) |" in page
    assert "| grid 5x5, every node subscribed (20 x 1 KB) | 5.00 | 4.74 (0.95x), 57/60 delivered |" in page
    # rgg-50.toml has two systems: the others are not run there.
    assert ("| rgg-50.toml as it is (corner -> 5 nodes 2-5 hops away, 20 x 4 KB from 12 s) | 5.00 | - | "
            "2.00 (0.40x) | - |") in page
    assert "| grid 5x5, corner -> its row (20 x 1 KB) | subscriber-tree | 0.40x | met |" in page


def test_sim_forwarding_page_names_a_failing_run(tmp_path):
    sys.path.insert(0, str(REPO / "emulation"))
    from reporting import sim_forwarding
    fake = tmp_path / "dissem-sim"
    fake.write_text("#!/bin/sh\necho 'no such controller' >&2\nexit 2\n")
    fake.chmod(0o755)
    try:
        sim_forwarding.write(fake, tmp_path / "p.md", REPO)
    except RuntimeError as e:
        assert "exited 2" in str(e) and "no such controller" in str(e)
    else:
        raise AssertionError("a failing dissem-sim run was not reported")


def test_many_receivers_on_both_engines_side_by_side_with_the_targets(tmp_path):
    sys.path.insert(0, str(REPO / "emulation"))
    from reporting import many_receivers_engines
    emu, emane = tmp_path / "emu", tmp_path / "emane"
    own = {"capacity_kbps": 256, "shared_channel": 0}
    for seed in (1, 2, 3):
        for root, engine, ours in ((emu, None, 36.0), (emane, "emane", 38.0)):
            write_run(root, "baseline-1to10", own, "dissem", seed, latency=ours, frames=1300, receivers=10,
                      engine=engine)
            write_run(root, "baseline-1to10", own, "norm", seed, latency=50.0, frames=1400, receivers=10,
                      engine=engine)
            write_run(root, "baseline-1to10", own, "norm-noack", seed, latency=45.0, frames=1500, receivers=10,
                      engine=engine)
    page = many_receivers_engines.write(emu / "baseline-1to10", emane / "baseline-1to10",
                                        tmp_path / "emane-1toN.md").read_text()
    assert "| 256 | dissem | 36.00 | 38.00 | +5.6 % |" in page
    # Held to NORM without ACKs (45 s, the faster): 36/45 = 0.80 on dissem-emu, 38/45 = 0.84 on EMANE.
    assert "| 256 | dissem-emu | no ACK | 0.80 |" in page and "| met |" in page
    assert "| 256 | EMANE | no ACK | 0.84 |" in page and "| missed |" in page
