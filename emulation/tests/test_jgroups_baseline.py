"""Tests of dissem-jgroups, the JGroups baseline, on loopback multicast.

Every process binds to lo (127.0.0.1) and multicasts with TTL 1, so no
packet leaves the host and no root is needed. Each test picks its own
group, port and cluster name so that concurrent runs do not hear each other.
Repairs are exercised with JGroups' DISCARD protocol (--discard PERCENT drops
that share of the packets each receiver takes in), since loopback loses none.

Binary: $DISSEM_JGROUPS, else emulation/baselines/jgroups/dissem-jgroups in
$DISSEM_BUILD_DIR (default build/debug), else in $DISSEM_RELEASE_BUILD_DIR
(default build/release), relative to the repository root.
"""

import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from baseline_processes import Processes, binary_fixture, processes_fixture  # noqa: E402

RATE_BPS = 20_000_000
MESSAGE_BYTES = 819_200
# Each process bounds itself with --time-limit; the JVMs start in ~0.5 s and
# joining takes about --join-timeout (discovery waits that long).
PROCESS_TIME_LIMIT_S = 25
WAIT_S = PROCESS_TIME_LIMIT_S + 10
JOIN_TIMEOUT_MS = 1000


binary = binary_fixture("DISSEM_JGROUPS", "dissem-jgroups", ("debug", "release"))


class Session(Processes):
    """dissem-jgroups processes on one private group/port/cluster (Processes
    kills leftovers)."""

    def __init__(self, binary, tmp_path, wait_s):
        super().__init__(binary, tmp_path, wait_s)
        self.group = f"239.78.{random.randint(0, 255)}.{random.randint(1, 254)}"
        self.port = random.randint(30000, 59999)
        self.cluster = f"test-{random.getrandbits(48):012x}"

    def common(self, node_id):
        return [
            "--node-id", str(node_id),
            "--interface", "lo",
            "--group", self.group,
            "--port", str(self.port),
            "--cluster", self.cluster,
            "--join-timeout", str(JOIN_TIMEOUT_MS),
            "--time-limit", str(PROCESS_TIME_LIMIT_S),
        ]

    def start(self, role, node_id, *extra):
        return self.spawn(f"{role}-{node_id}", role, *self.common(node_id), *extra)

    def sender(self, node_id, *extra):
        return self.start("sender", node_id, "--rate", str(RATE_BPS), *extra)

    def receiver(self, node_id, *extra):
        return self.start("receiver", node_id, *extra)

    def stderr_of(self, proc):
        proc.err.flush()
        return (self.tmp_path / f"{proc.name}.err").read_text()

    def finish(self, proc):
        """As Processes.finish, and stdout must hold the result line only
        (JGroups' own printing goes to stderr)."""
        code, result, stderr = super().finish(proc)
        proc.out.seek(0)
        lines = [line for line in proc.out.read().splitlines() if line.strip()]
        assert len(lines) == 1, f"{proc.name}: stdout must hold only the result line:\n{lines}"
        return code, result, stderr


session = processes_fixture(Session, "session", WAIT_S)


def check_receiver(code, result, stderr, node_id):
    assert code == 0, stderr
    assert result["system"] == "jgroups" and result["role"] == "receiver"
    assert result["node_id"] == node_id
    assert result["expect"] == 1
    assert result["objects_completed"] == 1
    assert result["bytes_completed"] == MESSAGE_BYTES
    assert result["content_errors"] == 0
    assert result["duplicates"] == 0
    assert result["timed_out"] is False and result["interrupted"] is False
    assert result["jgroups_version"] == "5.3.13.Final"
    [m] = result["messages"]
    assert m["index"] == 0 and m["bytes"] == MESSAGE_BYTES and m["content_ok"] is True
    assert m["completed_unix"] >= m["enqueue_unix"]
    assert 0 <= m["latency_s"] < 15, m
    return result


def check_sender(code, result, stderr, receivers):
    assert code == 0, stderr
    assert result["system"] == "jgroups" and result["role"] == "sender"
    assert result["completed"] is True and result["completion_basis"] == "done"
    assert result["receivers_done"] == list(receivers)
    assert result["messages_planned"] == 1
    assert result["objects_enqueued"] == 1
    assert result["bytes_enqueued"] == MESSAGE_BYTES
    assert result["rate_bps"] == RATE_BPS
    assert result["rate_limit_bytes_per_s"] == RATE_BPS * 0.75 / 8
    assert result["frag_size"] == 1400
    assert len(result["enqueue_times"]) == 1
    assert result["start_unix"] > 0 and result["join_s"] >= 0
    assert result["completion_s"] >= result["sent_s"] > 0
    assert result["view_size"] >= 1
    return result


def test_one_sender_two_receivers_every_byte(session):
    receivers = {node: session.receiver(node, "--expect", "1") for node in (2, 3)}
    sender = session.sender(1, "--receivers", "2", "--messages", f"1x{MESSAGE_BYTES}", "--linger", "20")

    sent = check_sender(*session.finish(sender), receivers=(2, 3))
    # RATE_LIMITER paces the fragments' payload at 0.75 x --rate: 819,200
    # bytes cannot leave faster than that (a little slack for the first
    # period, which starts full).
    assert sent["sent_s"] >= 0.8 * MESSAGE_BYTES / (RATE_BPS * 0.75 / 8)
    for node, proc in receivers.items():
        got = check_receiver(*session.finish(proc), node_id=node)
        assert got["messages"][0]["enqueue_unix"] == pytest.approx(sent["start_unix"], abs=0.01)


def test_repairs_recover_from_receiver_loss(session):
    # Each receiver's DISCARD drops 10 % of what it takes in, so NAKACK2 must
    # ask the sender for the missing fragments (and UNICAST3 / GMS repeat
    # their own lost messages).
    receivers = {node: session.receiver(node, "--expect", "1", "--discard", "10") for node in (2, 3)}
    sender = session.sender(1, "--receivers", "2", "--messages", f"1x{MESSAGE_BYTES}", "--linger", "20")

    sent = check_sender(*session.finish(sender), receivers=(2, 3))
    assert sent["xmit_requests_received"] > 0
    assert sent["xmit_responses_sent"] > 0
    for node, proc in receivers.items():
        got = check_receiver(*session.finish(proc), node_id=node)
        assert got["discard_pct"] == 10
        assert got["discarded_up"] > 0
        assert got["xmit_requests_sent"] > 0


@pytest.mark.parametrize(
    "role, args, option",
    [
        ("sender", ["--node-id", "1", "--messages", "1x10"], "--rate"),
        ("sender", ["--node-id", "1", "--rate", "1000000"], "--messages"),
        ("sender", ["--node-id", "1", "--rate", "1000000", "--messages", "2xfoo"], "--messages"),
        ("sender", ["--node-id", "1", "--rate", "1000000", "--messages", "1x10", "--rate-share", "1.5"], "--rate-share"),
        ("receiver", ["--node-id", "2"], "--expect"),
        ("receiver", ["--expect", "1"], "--node-id"),
        ("receiver", ["--node-id", "2", "--expect", "1", "--interface", "no-such-if0"], "--interface"),
        ("receiver", ["--node-id", "2", "--expect", "1", "--group", "10.0.0.1"], "--group"),
        ("receiver", ["--node-id", "2", "--expect", "1", "--receivers", "3"], "--receivers"),
        ("receiver", ["--node-id", "2", "--expect", "1", "--bogus", "3"], "--bogus"),
        ("relay", ["--node-id", "2"], "role"),
    ],
)
def test_bad_arguments_exit_2_naming_the_option(binary, role, args, option):
    proc = subprocess.run([binary, role, *args], capture_output=True, text=True, timeout=30)
    assert proc.returncode == 2, proc.stderr
    assert option in proc.stderr.splitlines()[0], proc.stderr
    assert proc.stdout == ""


def test_sigterm_prints_a_partial_result(session):
    receiver = session.receiver(2, "--expect", "3")
    deadline = time.monotonic() + 20
    while "joined" not in session.stderr_of(receiver):
        assert receiver.poll() is None, session.stderr_of(receiver)
        assert time.monotonic() < deadline, "the receiver never joined"
        time.sleep(0.1)
    started = time.monotonic()
    receiver.send_signal(signal.SIGTERM)
    code, result, stderr = session.finish(receiver)
    assert time.monotonic() - started < 6, "SIGTERM took too long"
    assert code == 1, stderr
    assert result["role"] == "receiver"
    assert result["interrupted"] is True and result["timed_out"] is False
    assert result["objects_completed"] == 0 and result["messages"] == []
    assert result["expect"] == 3


def test_time_limit_ends_a_lonely_sender(session):
    # Nobody joins, so the sender never sends: exit 1 with its result.
    sender = session.start(
        "sender", 1, "--rate", str(RATE_BPS), "--receivers", "1", "--messages", "1x1000", "--time-limit", "3"
    )
    code, result, stderr = session.finish(sender)
    assert code == 1, stderr
    assert result["timed_out"] is True and result["completed"] is False
    assert result["objects_enqueued"] == 0 and result["start_unix"] is None
