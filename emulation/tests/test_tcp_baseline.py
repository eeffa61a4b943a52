"""Tests of dissem-tcp, the TCP baseline, on loopback (no root needed).

Binary: $DISSEM_TCP, else build/debug/... or build/release/emulation/baselines/tcp/dissem-tcp
under the repository root.
"""

import json
import os
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
CANDIDATES = [REPO_ROOT / f"build/{kind}/emulation/baselines/tcp/dissem-tcp" for kind in ("debug", "release")]
WORKLOAD = ["--stream", "pos,count=40,bytes=1024,rate_hz=40,sources=4", "--stream", "img,count=2,bytes=5120,rate_hz=1"]


@pytest.fixture(scope="module")
def binary():
    env = os.environ.get("DISSEM_TCP")
    if env:
        if not os.access(env, os.X_OK):
            pytest.fail(f"DISSEM_TCP={env} is not an executable")
        return env
    for path in CANDIDATES:
        if os.access(path, os.X_OK):
            return str(path)
    pytest.skip("no dissem-tcp: build the dissem-tcp target or set DISSEM_TCP")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(binary, *args):
    return subprocess.Popen([binary, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def result(proc, timeout=20):
    out, err = proc.communicate(timeout=timeout)
    lines = [line for line in out.splitlines() if line.startswith("{")]
    assert lines, f"no JSON result; stderr: {err}"
    return proc.returncode, json.loads(lines[-1])


def test_every_message_arrives_with_its_stream_and_latency(binary):
    port = free_port()
    rx = start(binary, "receiver", "--listen", f"127.0.0.1:{port}", *WORKLOAD, "--time-limit", "15")
    tx = start(binary, "sender", "--connect", f"127.0.0.1:{port}", *WORKLOAD, "--time-limit", "15")
    rc, r = result(rx)
    assert rc == 0 and r["stopped_by"] == "complete"
    assert r["system"] == "tcp" and r["role"] == "receiver"
    assert r["messages_completed"] == r["expected"] == 42 and r["content_errors"] == 0 and r["duplicates"] == 0
    assert r["streams"]["pos"]["received"] == 40 and r["streams"]["pos"]["final_updates_received"] == 4
    assert r["streams"]["img"]["received"] == 2 and r["streams"]["img"]["bytes"] == 2 * 5120
    assert all(0 <= m["latency_s"] < 1 for m in r["messages"])
    # In order: one TCP connection carries one ordered byte stream.
    assert [m["index"] for m in r["messages"] if m["stream"] == "pos"] == list(range(40))
    rc, s = result(tx)
    assert rc == 0 and s["stopped_by"] == "receiver_closed"
    assert s["messages_published"] == s["messages_written"] == 42 and s["messages_unwritten"] == 0
    assert s["streams"]["pos"] == {"published": 40, "bytes": 40960}
    assert len(s["publish_s"]) == 42 and s["late_max_s"] < 0.5


def test_receiver_stops_linger_seconds_after_the_plan_and_says_so(binary):
    port = free_port()
    # The receiver expects more than the sender sends: it stops once the
    # plan's last message is 0.5 s old, with what came.
    plan = ["--stream", "pos,count=10,bytes=100,rate_hz=20"]
    rx = start(binary, "receiver", "--listen", f"127.0.0.1:{port}", "--stream", "pos,count=10,bytes=100,rate_hz=20",
               "--stream", "never,count=5,bytes=100,rate_hz=10", "--linger", "0.5", "--time-limit", "15")
    tx = start(binary, "sender", "--connect", f"127.0.0.1:{port}", *plan, "--time-limit", "15")
    t0 = time.monotonic()
    rc, r = result(rx)
    assert rc == 4 and r["stopped_by"] == "linger" and r["timed_out"] is True
    assert r["streams"]["pos"]["received"] == 10 and r["streams"]["never"]["received"] == 0
    assert time.monotonic() - t0 < 5
    rc, s = result(tx)
    assert rc == 0 and s["stopped_by"] == "receiver_closed"


def test_sender_without_receiver_fails_with_a_result(binary):
    rc, s = result(start(binary, "sender", "--connect", f"127.0.0.1:{free_port()}", *WORKLOAD,
                         "--connect-timeout", "0.3"))
    assert rc == 1 and s["stopped_by"] == "connect_failed" and s["messages_published"] == 0


def test_sigterm_prints_the_partial_result(binary):
    port = free_port()
    rx = start(binary, "receiver", "--listen", f"127.0.0.1:{port}", "--expect", "1000", "--time-limit", "30")
    tx = start(binary, "sender", "--connect", f"127.0.0.1:{port}", "--stream", "s,count=1000,bytes=64,rate_hz=100",
               "--time-limit", "30")
    time.sleep(1.0)
    rx.send_signal(signal.SIGTERM)
    rc, r = result(rx)
    assert rc == 4 and r["stopped_by"] == "signal" and r["interrupted"] is True
    assert 0 < r["messages_completed"] < 1000
    rc, s = result(tx)
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
