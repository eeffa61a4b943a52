"""Tests of the Python dissemd client.

The first part needs no daemon: framing, and the client against a scripted
fake server on a Unix socket (deterministic interleaving of pushes and
responses). The second part starts two real dissemd processes on loopback
multicast (binary from $DISSEMD, else build/o3/src/dissemd or
build/debug/src/dissemd under the repository root).
"""

import filecmp
import os
import random
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import pytest

from dissem_client import (
    Client,
    DaemonConnectionError,
    Delivery,
    ErrorCode,
    EventKind,
    MessageId,
    RequestError,
    Stats,
)
from dissem_client import framing
from dissem_client import ipc_pb2 as pb

REPO_ROOT = Path(__file__).resolve().parents[3]


# --- framing -------------------------------------------------------------------


def test_frames_survive_any_split():
    a, b = socket.socketpair()
    try:
        bodies = [b"", b"x", bytes(range(256)) * 1000, b"tail"]
        stream = b"".join(framing.encode_frame(x) for x in bodies)
        reader = framing.FrameReader(b)
        got = []
        # Dribble the stream in odd-sized pieces, reading with short deadlines.
        pos = 0
        while len(got) < len(bodies):
            if pos < len(stream):
                n = min(7777, len(stream) - pos)
                a.sendall(stream[pos : pos + n])
                pos += n
            body = reader.read(time.monotonic() + 0.05)
            while body is not None:
                got.append(body)
                body = reader.read(time.monotonic())
        assert got == bodies
        assert reader.read(time.monotonic() + 0.01) is None  # timeout, nothing lost
        a.close()
        with pytest.raises(framing.StreamClosed):
            reader.read(time.monotonic() + 1)
    finally:
        a.close()
        b.close()


def test_oversized_frame_header_is_refused_before_the_body():
    a, b = socket.socketpair()
    try:
        a.sendall(framing.HEADER.pack(framing.MAX_FRAME_BYTES + 1))
        with pytest.raises(framing.FrameTooLarge):
            framing.FrameReader(b).read(time.monotonic() + 1)
    finally:
        a.close()
        b.close()


def test_generated_code_is_current(tmp_path):
    if shutil.which("protoc") is None:
        pytest.skip("protoc not installed")
    subprocess.run(["bash", str(REPO_ROOT / "clients/python/generate.sh"), str(tmp_path)], check=True)
    committed = REPO_ROOT / "clients/python/src/dissem_client/ipc_pb2.py"
    assert filecmp.cmp(tmp_path / "ipc_pb2.py", committed, shallow=False), "run clients/python/generate.sh"


# --- against a scripted fake daemon ----------------------------------------------


class FakeDaemon:
    """Serves one connection on a Unix socket; `script(conn, read_request)` drives it."""

    def __init__(self, directory, script):
        self.path = os.path.join(directory, "fake.sock")
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(self.path)
        self.listener.listen(1)
        self.error = None
        self.thread = threading.Thread(target=self._run, args=(script,), daemon=True)
        self.thread.start()

    def _run(self, script):
        try:
            conn, _ = self.listener.accept()
            with conn:
                reader = framing.FrameReader(conn)

                def read_request():
                    m = pb.ClientMessage()
                    m.ParseFromString(reader.read(time.monotonic() + 10))
                    return m

                script(conn, read_request)
        except Exception as e:  # surfaced by join()
            self.error = e

    def join(self):
        self.thread.join(10)
        self.listener.close()
        if self.error is not None:
            raise self.error


def send(conn, server_message):
    conn.sendall(framing.encode_frame(server_message.SerializeToString()))


def delivery_msg(sub, seq, payload):
    m = pb.ServerMessage()
    d = m.delivery
    d.subscription_id, d.group, d.publisher, d.seq, d.payload, d.tag = sub, "g", 7, seq, payload, "t"
    return m


def test_pushes_while_waiting_for_a_response_are_queued(tmp_path):
    seen_ids = []

    def script(conn, read_request):
        req = read_request()
        seen_ids.append(req.request_id)
        assert req.WhichOneof("request") == "subscribe" and req.subscribe.group == "g"
        r = pb.ServerMessage()
        r.response.request_id = req.request_id
        r.response.subscribe_ack.subscription_id = 3
        send(conn, r)

        req = read_request()
        seen_ids.append(req.request_id)
        assert req.WhichOneof("request") == "get_stats"
        # Pushes interleaved before the response.
        send(conn, delivery_msg(3, 1, b"one"))
        ev = pb.ServerMessage()
        ev.event.kind, ev.event.peer = pb.Event.PEER_APPEARED, 9
        send(conn, ev)
        unknown = pb.ServerMessage()
        unknown.event.kind = 99  # a kind newer than the client: ignored
        send(conn, unknown)
        send(conn, delivery_msg(3, 2, b"two"))
        r = pb.ServerMessage()
        r.response.request_id = req.request_id
        r.response.stats.received.data.bytes = 1234
        r.response.stats.malformed["empty"] = 2
        send(conn, r)

        req = read_request()
        seen_ids.append(req.request_id)
        r = pb.ServerMessage()
        r.response.request_id = req.request_id
        r.response.error.code = pb.Error.REJECTED
        r.response.error.message = "no such subscription"
        send(conn, r)

        req = read_request()
        seen_ids.append(req.request_id)
        r = pb.ServerMessage()
        r.response.request_id = 0
        r.response.error.code = pb.Error.MALFORMED_FRAME
        r.response.error.message = "bad frame"
        send(conn, r)

    fake = FakeDaemon(str(tmp_path), script)
    with Client(fake.path) as c:
        assert c.subscribe("g") == 3
        s = c.stats()
        assert isinstance(s, Stats)
        assert s.received.data.bytes == 1234 and s.malformed == {"empty": 2}
        assert c.pending_deliveries == 2 and c.pending_events == 1
        d1 = c.next_delivery(timeout=0)
        assert d1 == Delivery(3, "g", 7, 1, 0, 0, "t", b"one")
        assert c.next_delivery(timeout=0).payload == b"two"
        assert c.next_delivery(timeout=0) is None
        e = c.next_event(timeout=0)
        assert e.kind == EventKind.PEER_APPEARED and e.peer == 9
        assert c.next_event(timeout=0.05) is None
        with pytest.raises(RequestError) as err:
            c.unsubscribe(42)
        assert err.value.code == ErrorCode.REJECTED and "no such subscription" in err.value.message
        assert c.connected
        with pytest.raises(DaemonConnectionError) as cerr:
            c.peers()
        assert "bad frame" in str(cerr.value) and fake.path in str(cerr.value)
        assert not c.connected
        with pytest.raises(DaemonConnectionError):
            c.next_delivery(timeout=0)
    fake.join()
    assert seen_ids == [1, 2, 3, 4]


def test_connecting_to_nothing_names_the_socket(tmp_path):
    path = str(tmp_path / "nobody.sock")
    with pytest.raises(DaemonConnectionError) as err:
        Client(path)
    assert isinstance(err.value, ConnectionError)
    assert path in str(err.value)
    c = Client()
    with pytest.raises(DaemonConnectionError):
        c.stats()


# --- against real daemons ---------------------------------------------------------


def find_dissemd():
    env = os.environ.get("DISSEMD")
    if env:
        if not os.access(env, os.X_OK):
            pytest.fail(f"DISSEMD={env} is not an executable")
        return env
    for rel in ("build/o3/src/dissemd", "build/debug/src/dissemd"):
        p = REPO_ROOT / rel
        if os.access(p, os.X_OK):
            return str(p)
    pytest.skip(
        "no dissemd binary: build it (build/o3 or build/debug) or set DISSEMD=/path/to/dissemd"
    )


def pick_port():
    """A random UDP port that nothing on this host has bound (daemons bind it
    with SO_REUSEADDR, so a plain bind fails while one is there)."""
    for _ in range(50):
        port = random.randint(20000, 40000)
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            s.bind(("0.0.0.0", port))
            return port
        except OSError:
            continue
        finally:
            s.close()
    raise RuntimeError("no free UDP port found")


class Daemon:
    def __init__(self, binary, directory, name, port):
        self.socket = os.path.join(directory, f"{name}.sock")
        self.log_path = os.path.join(directory, f"{name}.log")
        args = [
            binary, "--interface", "lo", "--port", str(port),
            "--cache", os.path.join(directory, f"{name}.db"), "--socket", self.socket,
            "--log-level", "warn", "--set", "engine.link_capacity_bps=200000000",
        ]
        self.log = open(self.log_path, "wb")
        self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=self.log, stderr=subprocess.STDOUT)

    def wait_ready(self, timeout=10.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"dissemd exited with {self.proc.returncode}: {self.output()}")
            try:
                Client(self.socket, connect_timeout=1.0).close()
                return
            except DaemonConnectionError:
                time.sleep(0.025)
        raise RuntimeError(f"dissemd did not open {self.socket} within {timeout} s: {self.output()}")

    def output(self):
        self.log.flush()
        with open(self.log_path, "rb") as f:
            return f.read().decode(errors="replace")[-2000:]

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=5)
        self.log.close()


@pytest.fixture(scope="module")
def daemons(request):
    binary = find_dissemd()
    directory = tempfile.mkdtemp(prefix="dissem-pytest-")
    started = []

    def cleanup():
        for d in started:
            d.stop()
        shutil.rmtree(directory, ignore_errors=True)

    request.addfinalizer(cleanup)
    port = pick_port()
    for name in ("a", "b"):
        started.append(Daemon(binary, directory, name, port))
    for d in started:
        d.wait_ready()
    return started


def pattern(n):
    return random.Random(12345).randbytes(n)


def wait_for(predicate, timeout, what):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    pytest.fail(f"timed out after {timeout} s waiting for {what}")


def test_one_megabyte_arrives_byte_identical(daemons):
    a, b = daemons
    payload = pattern(1 << 20)
    with Client(a.socket) as pub, Client(b.socket) as sub:
        sub_id = sub.subscribe("pytest/big", reliable=True)
        mid = pub.publish("pytest/big", payload, priority=1, tag="one-mb")
        assert isinstance(mid, MessageId) and mid.group == "pytest/big" and mid.seq >= 1

        d = sub.next_delivery(timeout=60.0)
        assert d is not None, f"no delivery within 60 s; subscriber stats: {sub.stats()}"
        assert d.subscription == sub_id
        assert (d.group, d.publisher, d.seq) == (mid.group, mid.publisher, mid.seq)
        assert d.tag == "one-mb" and d.priority == 1
        assert len(d.payload) == len(payload) and d.payload == payload

        s = sub.stats()
        assert s.received.data.bytes >= len(payload), s
        assert s.received.data.datagrams > 0
        assert s.messages_completed >= 1 and s.deliveries >= 1
        assert s.cache_messages >= 1 and s.cache_bytes >= len(payload)
        ps = pub.stats()
        assert ps.messages_published >= 1 and ps.sent.data.bytes >= len(payload)
        assert ps.as_dict()["sent"]["data"]["bytes"] == ps.sent.data.bytes


def test_several_deliveries_queue_while_requests_wait(daemons):
    a, b = daemons
    with Client(a.socket) as pub, Client(b.socket) as sub:
        sub.subscribe("pytest/many")
        ids = [pub.publish("pytest/many", f"m{i}".encode()) for i in range(5)]
        # Only requests here: every delivery pushed meanwhile must be queued.
        def queued():
            if sub.pending_deliveries >= 5:
                return True
            sub.stats()  # reads (and queues) whatever the daemon pushed before answering
            return False

        wait_for(queued, 30, "5 queued deliveries")
        got = [sub.next_delivery(timeout=0) for _ in range(5)]
        assert sorted((d.publisher, d.seq) for d in got) == sorted((m.publisher, m.seq) for m in ids)
        assert sorted(d.payload for d in got) == [f"m{i}".encode() for i in range(5)]
        assert sub.next_delivery(timeout=0) is None


def test_invalid_publish_raises_and_connection_stays_usable(daemons):
    a, _ = daemons
    with Client(a.socket) as c:
        with pytest.raises(RequestError) as err:
            c.publish("", b"payload")
        assert err.value.code == ErrorCode.REJECTED
        assert err.value.message
        assert c.connected
        assert isinstance(c.stats(), Stats)
        mid = c.publish("pytest/after-error", b"fine")
        assert mid.group == "pytest/after-error"


def test_subscription_lifecycle_and_history(daemons):
    a, _ = daemons
    with Client(a.socket) as c:
        s1 = c.subscribe("pytest/life", reliable=False, ordered=True, history=3)
        s2 = c.subscribe("pytest/life", use_publisher_history=True)
        assert s1 != s2
        c.unsubscribe(s1)
        with pytest.raises(RequestError):
            c.unsubscribe(s1)
        c.request_history("pytest/life", 5)
        c.unsubscribe(s2)
        assert c.connected


def test_peers_see_each_other(daemons):
    a, b = daemons
    with Client(a.socket) as ca, Client(b.socket) as cb:
        b_node = cb.publish("pytest/whoami", b"x").publisher
        a_node = ca.publish("pytest/whoami", b"x").publisher
        assert a_node != b_node
        peers = wait_for(lambda: [p for p in ca.peers() if p.node_id == b_node], 15, f"node {b_node} in peers")
        p = peers[0]
        assert 0.0 <= p.estimated_loss <= 1.0 and p.last_heard_ms_ago >= 0 and p.srtt_ms >= 0.0
