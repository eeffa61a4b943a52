"""Tests of dissem-pgm, the OpenPGM baseline, on loopback multicast.

Every process runs with `--interface lo --loopback` (PGM over UDP
encapsulation, multicast looped back to the other processes, which share the
session port), so no packet leaves the host and no root is needed. Each test
picks its own group and port so that concurrent runs do not hear each other.

On one host every PGM socket binds 0.0.0.0:PORT with SO_REUSEPORT, and the
receivers' unicast NAKs must reach the sender's: dissem-pgm steers unicast to
the first socket bound, so the sender starts first and waits with
--start-delay until the receivers listen (see the README).

Binary: $DISSEM_PGM, else emulation/baselines/pgm/dissem-pgm in
$DISSEM_BUILD_DIR (default build/debug), relative to the repository root.
"""

import subprocess
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from baseline_processes import GroupSession, binary_fixture, processes_fixture  # noqa: E402

RATE_BPS = 20_000_000
MESSAGE_BYTES = 200_000
START_DELAY_S = 1.0  # the receivers start within it
# Generous bounds: the binary is usually built with sanitizers and the machine
# is shared. Each process also bounds itself with --time-limit.
PROCESS_TIME_LIMIT_S = 20
WAIT_S = PROCESS_TIME_LIMIT_S + 10


binary = binary_fixture("DISSEM_PGM", "dissem-pgm")


class Session(GroupSession):
    """dissem-pgm processes on one private group/port; kills leftovers."""

    GROUP_PREFIX = "239.78"

    def common(self, node_id):
        return [
            "--node-id", str(node_id),
            "--group", self.group,
            "--port", str(self.port),
            "--interface", "lo",
            "--loopback",
            "--ttl", "1",
            "--time-limit", str(PROCESS_TIME_LIMIT_S),
        ]

    def sender(self, node_id, *extra):
        proc = self.start("sender", node_id, "--rate", str(RATE_BPS), "--start-delay", str(START_DELAY_S), *extra)
        time.sleep(0.2)  # bound to the port before any receiver
        return proc


session = processes_fixture(Session, "session", WAIT_S)


def check_receiver(code, result, stderr, node_id, count):
    assert code == 0, stderr
    assert result["system"] == "pgm" and result["role"] == "receiver"
    assert result["node_id"] == node_id
    assert result["expect"] == count
    assert result["objects_completed"] == count
    assert result["bytes_completed"] == count * MESSAGE_BYTES
    assert result["content_errors"] == 0
    assert result["resets"] == 0
    assert result["incomplete"] == 0
    assert result["timed_out"] is False
    messages = sorted(result["messages"], key=lambda m: m["index"])
    assert [m["index"] for m in messages] == list(range(count))
    for m in messages:
        assert m["bytes"] == MESSAGE_BYTES
        assert m["content_ok"] is True
        assert m["completed_unix"] >= m["enqueue_unix"]
        assert m["latency_s"] > 0
    return messages


def check_sender(code, result, stderr, count):
    assert code == 0, stderr
    assert result["system"] == "pgm" and result["role"] == "sender"
    assert result["completed"] is True
    assert result["interrupted"] is True  # stopped by SIGTERM while lingering
    assert result["objects_enqueued"] == count
    assert result["bytes_enqueued"] == count * MESSAGE_BYTES
    assert result["rate_bps"] == RATE_BPS
    assert result["odata_share"] == 0.7
    assert result["payload"] == 1400
    assert result["max_tpdu"] == 1452
    assert len(result["enqueue_times"]) == count
    assert result["enqueue_times"][0] == 0  # start_unix is the first APDU
    assert result["send_errors"] == 0


def test_one_sender_two_receivers_complete_byte_identical(session):
    sender = session.sender(1, "--messages", f"3x{MESSAGE_BYTES}", "--linger", "30")
    receivers = {node: session.receiver(node, "--expect", "3") for node in (2, 3)}

    results = {node: session.finish(proc) for node, proc in receivers.items()}
    code, sent, stderr = session.stop(sender)
    check_sender(code, sent, stderr, count=3)
    # Original data gets 70 % of --rate; PGM counts IP and UDP headers too.
    odata_bps = RATE_BPS * 0.7
    for node, (code, result, stderr) in results.items():
        messages = check_receiver(code, result, stderr, node_id=node, count=3)
        one_message_s = MESSAGE_BYTES * 8 / odata_bps
        for i, m in enumerate(messages):
            # Paced: messages go one after the other at the original-data
            # rate, each timed from its own first APDU; on loopback none
            # should take seconds more.
            assert 0.9 * one_message_s <= m["latency_s"] < 5.0, m
            assert m["completed_unix"] - sent["start_unix"] >= 0.9 * (i + 1) * one_message_s, m
            assert m["enqueue_unix"] >= sent["start_unix"]


def test_receiver_loss_is_repaired_through_naks(session):
    # --rx-loss drops arriving ODATA/RDATA in the kernel (a socket filter), so
    # the receiver must NAK and the sender send RDATA.
    sender = session.sender(1, "--messages", f"1x{MESSAGE_BYTES}", "--linger", "30")
    receivers = {node: session.receiver(node, "--expect", "1", "--rx-loss", "20") for node in (2, 3)}

    results = {node: session.finish(proc) for node, proc in receivers.items()}
    code, sent, stderr = session.stop(sender)
    check_sender(code, sent, stderr, count=1)
    for node, (code, result, stderr) in results.items():
        check_receiver(code, result, stderr, node_id=node, count=1)
        assert result["rx_loss"] == 20
        # Every APDU was delivered once, in order, despite a fifth dropped.
        assert result["apdus_received"] == sent["stats"]["apdus_sent"]


def test_receiver_time_limit_gives_partial_result(session):
    start = time.monotonic()
    proc = session.spawn("receiver-2", "receiver", *session.common(2)[:-2], "--time-limit", "0.5", "--expect", "1")
    code, result, stderr = session.finish(proc)
    assert code == 1, stderr
    assert time.monotonic() - start < 5
    assert result["timed_out"] is True
    assert result["interrupted"] is False
    assert result["objects_completed"] == 0
    assert result["messages"] == []


def test_sender_time_limit_cuts_sending_short(session):
    # 1 MB at 8 kbit/s cannot be sent in 1 s.
    start = time.monotonic()
    proc = session.spawn("sender-1", "sender", *session.common(1)[:-2], "--time-limit", "1", "--rate", "80000",
                         "--messages", "1x1000000")
    code, result, stderr = session.finish(proc)
    assert code == 1, stderr
    assert time.monotonic() - start < 5
    assert result["timed_out"] is True
    assert result["completed"] is False
    assert result["objects_enqueued"] == 0
    assert 0 < result["stats"]["apdus_sent"] < 700


@pytest.mark.parametrize("role", ["sender", "receiver"])
def test_sigterm_prints_partial_result_promptly(session, role):
    if role == "sender":
        proc = session.start("sender", 1, "--rate", "80000", "--messages", "1x1000000")
    else:
        proc = session.receiver(2, "--expect", "1")
    time.sleep(1.0)
    start = time.monotonic()
    code, result, stderr = session.stop(proc)
    assert time.monotonic() - start < 2, stderr
    assert code == 1
    assert result["role"] == role
    assert result["interrupted"] is True
    assert result["timed_out"] is False
    if role == "sender":
        assert result["completed"] is False
        assert result["stats"]["apdus_sent"] > 0
    else:
        assert result["objects_completed"] == 0


SENDER_OK = ["sender", "--rate", "1000000", "--messages", "1x1000"]


@pytest.mark.parametrize(
    "args, option",
    [
        (["sender", "--rate", "fast", "--messages", "1x1000"], "--rate"),
        (["sender", "--messages", "1x1000"], "--rate"),
        (["sender", "--rate", "1000000"], "--messages"),
        (SENDER_OK[:-1] + ["3y1000"], "--messages"),
        (["sender", "--rate", "20000", "--messages", "1x1000"], "--rate"),  # repair share < one packet/s
        (SENDER_OK + ["--odata-share", "1.5"], "--odata-share"),
        (SENDER_OK + ["--interface", "nosuchif0"], "--interface"),
        (SENDER_OK + ["--group", "10.1.2.3"], "--group"),
        (SENDER_OK + ["--payload", "10"], "--payload"),
        (["receiver", "--node-id", "2"], "--expect"),
        (["receiver", "--expect", "0"], "--expect"),
        (["receiver", "--expect", "1", "--bogus"], "--bogus"),
        (["receiver", "--expect", "1", "--group", "not-an-ip"], "--group"),
        (["receiver", "--expect", "1", "--nak-data-retries", "256"], "--nak-data-retries"),
        (["receiver", "--expect", "1", "--rx-loss", "101"], "--rx-loss"),
    ],
)
def test_bad_option_exits_2_naming_it(binary, args, option):
    proc = subprocess.run([binary, *args], capture_output=True, text=True, timeout=10)
    assert proc.returncode == 2, proc.stderr
    assert option in proc.stderr
    assert proc.stdout == ""
