"""Tests of dissem-tcp, the TCP baseline, on loopback (no root needed).

Binary: $DISSEM_TCP, else emulation/baselines/tcp/dissem-tcp in $DISSEM_BUILD_DIR
(default build/debug), else in $DISSEM_RELEASE_BUILD_DIR (default build/release),
relative to the repository root.
"""

import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from baseline_processes import Processes, binary_fixture, processes_fixture  # noqa: E402

WAIT_S = 20  # each process also bounds itself with --time-limit
WORKLOAD = ["--stream", "pos,count=40,bytes=1024,rate_hz=40,sources=4", "--stream", "img,count=2,bytes=5120,rate_hz=1"]


binary = binary_fixture("DISSEM_TCP", "dissem-tcp", kinds=("debug", "release"))
processes = processes_fixture(Processes, "processes", WAIT_S)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_every_message_arrives_with_its_stream_and_latency(processes):
    port = free_port()
    rx = processes.spawn("receiver", "receiver", "--listen", f"127.0.0.1:{port}", *WORKLOAD, "--time-limit", "15")
    tx = processes.spawn("sender", "sender", "--connect", f"127.0.0.1:{port}", *WORKLOAD, "--time-limit", "15")
    rc, r, _ = processes.finish(rx)
    assert rc == 0 and r["stopped_by"] == "complete"
    assert r["system"] == "tcp" and r["role"] == "receiver"
    assert r["messages_completed"] == r["expected"] == 42 and r["content_errors"] == 0 and r["duplicates"] == 0
    assert r["streams"]["pos"]["received"] == 40 and r["streams"]["pos"]["final_updates_received"] == 4
    assert r["streams"]["img"]["received"] == 2 and r["streams"]["img"]["bytes"] == 2 * 5120
    assert all(0 <= m["latency_s"] < 1 for m in r["messages"])
    # In order: one TCP connection carries one ordered byte stream.
    assert [m["index"] for m in r["messages"] if m["stream"] == "pos"] == list(range(40))
    rc, s, _ = processes.finish(tx)
    assert rc == 0 and s["stopped_by"] == "receiver_closed"
    assert s["messages_published"] == s["messages_written"] == 42 and s["messages_unwritten"] == 0
    assert s["streams"]["pos"] == {"published": 40, "bytes": 40960}
    assert len(s["publish_s"]) == 42 and s["late_max_s"] < 0.5


def test_receiver_stops_linger_seconds_after_the_plan_and_says_so(processes):
    port = free_port()
    # The receiver expects more than the sender sends: it stops once the
    # plan's last message is 0.5 s old, with what came.
    plan = ["--stream", "pos,count=10,bytes=100,rate_hz=20"]
    rx = processes.spawn("receiver", "receiver", "--listen", f"127.0.0.1:{port}", *plan,
                         "--stream", "never,count=5,bytes=100,rate_hz=10", "--linger", "0.5", "--time-limit", "15")
    tx = processes.spawn("sender", "sender", "--connect", f"127.0.0.1:{port}", *plan, "--time-limit", "15")
    t0 = time.monotonic()
    rc, r, _ = processes.finish(rx)
    assert rc == 4 and r["stopped_by"] == "linger" and r["timed_out"] is True
    assert r["streams"]["pos"]["received"] == 10 and r["streams"]["never"]["received"] == 0
    assert time.monotonic() - t0 < 5
    rc, s, _ = processes.finish(tx)
    assert rc == 0 and s["stopped_by"] == "receiver_closed"


def test_sender_without_receiver_fails_with_a_result(processes):
    tx = processes.spawn("sender", "sender", "--connect", f"127.0.0.1:{free_port()}", *WORKLOAD,
                         "--connect-timeout", "0.3")
    rc, s, _ = processes.finish(tx)
    assert rc == 1 and s["stopped_by"] == "connect_failed" and s["messages_published"] == 0


def test_sigterm_prints_the_partial_result(processes):
    port = free_port()
    rx = processes.spawn("receiver", "receiver", "--listen", f"127.0.0.1:{port}", "--expect", "1000",
                         "--time-limit", "30")
    tx = processes.spawn("sender", "sender", "--connect", f"127.0.0.1:{port}",
                         "--stream", "s,count=1000,bytes=64,rate_hz=100", "--time-limit", "30")
    time.sleep(1.0)
    rc, r, _ = processes.stop(rx)
    assert rc == 4 and r["stopped_by"] == "signal" and r["interrupted"] is True
    assert 0 < r["messages_completed"] < 1000
    rc, s, _ = processes.finish(tx)
    assert rc == 0 and s["stopped_by"] == "receiver_closed"
    assert s["messages_published"] < 1000


@pytest.mark.parametrize("args,fragment", [
    (["sender", "--connect", "127.0.0.1"], "--connect"),
    (["sender", "--connect", "127.0.0.1:5000"], "needs a workload"),
    (["receiver", "--listen", "5000"], "--expect"),
    (["receiver", "--listen", "5000", "--expect", "3", "--linger", "1"], "--linger"),
    (["receiver", "--listen", "5000", "--stream", "a,count=0,bytes=100"], "count"),
])
def test_bad_arguments_exit_2_naming_the_option(binary, args, fragment):
    proc = subprocess.run([binary, *args], capture_output=True, text=True, timeout=10)
    assert proc.returncode == 2 and fragment in proc.stderr, proc.stderr
