"""Helpers shared by the tests: a scripted fake daemon on a Unix socket, and
real dissemd processes on loopback multicast (binary from $DISSEMD, else
build/o3/src/dissemd or build/debug/src/dissemd under the repository root)."""

import os
import random
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest

from dissem_client import Client, DaemonConnectionError
from dissem_client import framing
from dissem_client import ipc_pb2 as pb

REPO_ROOT = Path(__file__).resolve().parents[3]


# --- a scripted fake daemon -------------------------------------------------------


class FakeDaemon:
    """Serves one connection on a Unix socket; `script(conn, read_request)` drives it.

    read_request(timeout=10) returns the next ClientMessage, or None if the
    client closed the connection."""

    def __init__(self, directory, script):
        self.path = os.path.join(str(directory), "fake.sock")
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(self.path)
        self.listener.listen(1)
        self.error = None
        self.thread = threading.Thread(target=self._run, args=(script,), daemon=True)
        self.thread.start()

    def _run(self, script):
        try:
            self.listener.settimeout(10)
            conn, _ = self.listener.accept()
            with conn:
                reader = framing.FrameReader(conn)

                def read_request(timeout=10.0):
                    try:
                        body = reader.read(time.monotonic() + timeout)
                    except framing.StreamClosed:
                        return None
                    if body is None:
                        raise TimeoutError(f"fake daemon: no request within {timeout} s")
                    m = pb.ClientMessage()
                    m.ParseFromString(body)
                    return m

                script(conn, read_request)
        except Exception as e:  # surfaced by join()
            self.error = e

    def join(self):
        self.thread.join(10)
        self.listener.close()
        assert not self.thread.is_alive(), "fake daemon script did not finish within 10 s"
        if self.error is not None:
            raise self.error


def send(conn, server_message):
    conn.sendall(framing.encode_frame(server_message.SerializeToString()))


def delivery_msg(sub, seq, payload):
    m = pb.ServerMessage()
    d = m.delivery
    d.subscription_id, d.group, d.publisher, d.seq, d.payload, d.tag = sub, "g", 7, seq, payload, "t"
    return m


def event_msg(kind, peer):
    m = pb.ServerMessage()
    m.event.kind, m.event.peer = kind, peer
    return m


def response_msg(request_id, **result):
    """A Response; e.g. response_msg(3, ok=True), response_msg(1, subscribe_ack=5),
    response_msg(2, error=(pb.Error.REJECTED, "why"))."""
    m = pb.ServerMessage()
    r = m.response
    r.request_id = request_id
    for kind, value in result.items():
        if kind == "ok":
            r.ok.SetInParent()
        elif kind == "subscribe_ack":
            r.subscribe_ack.subscription_id = value
        elif kind == "stats":
            r.stats.received.data.bytes = value
        elif kind == "peers":
            for node in value:
                r.peers.peers.add(node_id=node)
        elif kind == "error":
            r.error.code, r.error.message = value
        else:
            raise ValueError(kind)
    return m


# --- real daemons -------------------------------------------------------------------


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
    def __init__(self, binary, directory, name, port, extra=(), env=None):
        self.socket = os.path.join(directory, f"{name}.sock")
        self.log_path = os.path.join(directory, f"{name}.log")
        args = [
            binary, "--interface", "lo", "--port", str(port),
            "--cache", os.path.join(directory, f"{name}.db"), "--socket", self.socket,
            "--log-level", "warn", "--set", "engine.link_capacity_bps=200000000",
            *extra,
        ]
        self.log = open(self.log_path, "wb")
        self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=self.log, stderr=subprocess.STDOUT,
                                     env=None if env is None else {**os.environ, **env})

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

    def pause(self):
        self.proc.send_signal(signal.SIGSTOP)

    def kill(self):
        self.proc.kill()
        self.proc.wait(timeout=5)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGCONT)  # a paused daemon cannot act on SIGTERM
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=5)
        self.log.close()


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
