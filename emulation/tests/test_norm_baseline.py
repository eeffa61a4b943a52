"""Tests of dissem-norm, the NRL NORM baseline, on loopback multicast.

Every process runs with `--interface lo --loopback` (multicast sent on lo and
looped back to the other processes, which share the session port), or on
lo's broadcast address 127.255.255.255, so no packet leaves the host and no
root is needed. Each test picks its own group and port so that concurrent
runs do not hear each other.

Binary: $DISSEM_NORM, else emulation/baselines/norm/dissem-norm in
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
GRTT = 0.01
# Generous bounds: the binary is usually built with sanitizers and the machine
# is shared. Each process also bounds itself with --time-limit.
PROCESS_TIME_LIMIT_S = 15
WAIT_S = PROCESS_TIME_LIMIT_S + 10


binary = binary_fixture("DISSEM_NORM", "dissem-norm")


class Session(GroupSession):
    """dissem-norm processes on one private group/port; kills leftovers."""

    GROUP_PREFIX = "239.77"

    def common(self, node_id):
        where = ["--group", self.group, "--port", str(self.port), "--loopback"]
        if self.group.startswith("239."):
            where += ["--interface", "lo", "--ttl", "1"]
        return [
            "--node-id", str(node_id),
            *where,
            "--grtt", str(GRTT),
            "--time-limit", str(PROCESS_TIME_LIMIT_S),
        ]

    def sender(self, node_id, *extra):
        return self.start("sender", node_id, "--rate", str(RATE_BPS), *extra)


session = processes_fixture(Session, "session", WAIT_S)


def check_receiver(code, result, stderr, node_id, count):
    assert code == 0, stderr
    assert result["system"] == "norm" and result["role"] == "receiver"
    assert result["node_id"] == node_id
    assert result["objects_completed"] == count
    assert result["bytes_completed"] == count * MESSAGE_BYTES
    assert result["content_errors"] == 0
    assert result["objects_aborted"] == 0
    assert result["timed_out"] is False
    messages = sorted(result["messages"], key=lambda m: m["index"])
    assert [m["index"] for m in messages] == list(range(count))
    for m in messages:
        assert m["bytes"] == MESSAGE_BYTES
        assert m["content_ok"] is True
        assert m["completed_unix"] >= m["enqueue_unix"]
        assert m["new_s"] <= m["completed_s"]
    return messages


def check_sender_acked(code, result, stderr, ackers, count):
    assert code == 0, stderr
    assert result["system"] == "norm" and result["role"] == "sender"
    assert result["completed"] is True
    assert result["completion_basis"] == "ack"
    assert result["acker_status"] == {str(a): "success" for a in ackers}
    assert result["objects_enqueued"] == count
    assert result["bytes_enqueued"] == count * MESSAGE_BYTES
    assert result["grtt"] == GRTT
    assert result["rate_bps"] == RATE_BPS
    assert len(result["enqueue_times"]) == count
    assert result["completion_s"] > 0


def test_one_sender_two_receivers_with_positive_acknowledgement(session):
    receivers = {node: session.receiver(node, "--expect", "3", "--linger", "0.5") for node in (2, 3)}
    time.sleep(0.3)  # let both join before the first packet
    sender = session.sender(1, "--messages", f"3x{MESSAGE_BYTES}", "--ackers", "2,3", "--linger", "0.2")

    check_sender_acked(*session.finish(sender), ackers=(2, 3), count=3)
    transfer_s = MESSAGE_BYTES * 8 / RATE_BPS  # one message at the configured rate
    for node, proc in receivers.items():
        messages = check_receiver(*session.finish(proc), node_id=node, count=3)
        for i, m in enumerate(messages):
            # Plausible: NORM paces at --rate, so message i cannot complete
            # before i+1 messages' worth of bytes were sent; and on loopback,
            # with GRTT 0.01 s, it should not take seconds.
            assert 0.8 * (i + 1) * transfer_s <= m["latency_s"] < 5.0, m


def test_repairs_recover_from_receiver_loss(session):
    # --rx-loss drops packets inside NORM (independently per receiver), so the
    # NACK / parity repair path runs even without link emulation.
    receivers = {
        node: session.receiver(node, "--expect", "3", "--linger", "0.5", "--rx-loss", "10") for node in (2, 3)
    }
    time.sleep(0.3)
    sender = session.sender(1, "--messages", f"3x{MESSAGE_BYTES}", "--ackers", "2,3", "--linger", "0.2")

    check_sender_acked(*session.finish(sender), ackers=(2, 3), count=3)
    for node, proc in receivers.items():
        code, result, stderr = session.finish(proc)
        check_receiver(code, result, stderr, node_id=node, count=3)
        assert result["rx_loss"] == 10


def test_broadcast_address_session(session):
    # NORM 1.5.9 never sets SO_BROADCAST itself (sends fail with EACCES);
    # dissem-norm sets it on NORM's sockets. 127.255.255.255 is lo's broadcast.
    session.group = "127.255.255.255"
    receivers = {node: session.receiver(node, "--expect", "2", "--linger", "0.5") for node in (2, 3)}
    time.sleep(0.3)
    sender = session.sender(1, "--messages", f"2x{MESSAGE_BYTES}", "--ackers", "2,3", "--linger", "0.2")

    code, result, stderr = session.finish(sender)
    check_sender_acked(code, result, stderr, ackers=(2, 3), count=2)
    assert result["send_errors"] == 0
    for node, proc in receivers.items():
        check_receiver(*session.finish(proc), node_id=node, count=2)


def test_receiver_started_after_the_sender_still_gets_everything(session):
    # The sender has sent everything (3 x 80 ms) before the receiver exists;
    # the watermark's acknowledgement requests make it hear the sender, and
    # NORM_SYNC_ALL makes it ask for the old objects too. (With
    # NORM_SYNC_CURRENT the same receiver gets only the last object, and
    # still acknowledges the watermark.)
    sender = session.sender(1, "--messages", f"3x{MESSAGE_BYTES}", "--ackers", "2", "--linger", "0.2")
    time.sleep(0.3)
    receiver = session.receiver(2, "--expect", "3", "--linger", "0.5")

    code, sent, stderr = session.finish(sender)
    check_sender_acked(code, sent, stderr, ackers=(2,), count=3)
    code, got, stderr = session.finish(receiver)
    check_receiver(code, got, stderr, node_id=2, count=3)
    assert got["start_unix"] >= sent["start_unix"] + 0.25  # really a late joiner


def test_acknowledgement_failure_is_not_completion(session):
    # Nobody listens: a flush would "complete", the watermark must not.
    sender = session.sender(1, "--messages", "1x10000", "--ackers", "9", "--ack-retries", "1")
    code, result, stderr = session.finish(sender)
    assert code == 1
    assert result["completed"] is False
    assert result["acker_status"] == {"9": "failure"}
    assert result["ack_resets"] == 1
    assert "9" in stderr


def test_receiver_time_limit_gives_partial_result(session):
    start = time.monotonic()
    proc = session.spawn("receiver-2", "receiver", *session.common(2)[:-2], "--time-limit", "0.5", "--expect", "1")
    code, result, stderr = session.finish(proc)
    assert code == 1, stderr
    assert time.monotonic() - start < 5
    assert result["timed_out"] is True
    assert result["objects_completed"] == 0
    assert result["messages"] == []


SENDER_OK = ["sender", "--node-id", "1", "--rate", "1000000", "--grtt", "0.01", "--messages", "1x1000"]


@pytest.mark.parametrize(
    "args, option",
    [
        (SENDER_OK[:4] + ["fast"] + SENDER_OK[5:], "--rate"),
        (SENDER_OK[:5] + SENDER_OK[7:], "--grtt"),
        (SENDER_OK[:-1] + ["3y1000"], "--messages"),
        (SENDER_OK + ["--parity", "2", "--auto-parity", "3"], "--auto-parity"),
        (SENDER_OK + ["--ackers", "1"], "--ackers"),
        (SENDER_OK + ["--interface", "nosuchif0"], "--interface"),
        (SENDER_OK + ["--block", "200", "--parity", "100"], "--block"),
        (["receiver", "--node-id", "0", "--expect", "1"], "--node-id"),
        (["receiver", "--node-id", "2"], "--expect"),
        (["receiver", "--node-id", "2", "--expect", "1", "--bogus"], "--bogus"),
        (["receiver", "--node-id", "2", "--expect", "1", "--group", "not-an-ip"], "--group"),
    ],
)
def test_bad_option_exits_2_naming_it(binary, args, option):
    proc = subprocess.run([binary, *args], capture_output=True, text=True, timeout=10)
    assert proc.returncode == 2, proc.stderr
    assert option in proc.stderr
    assert proc.stdout == ""
