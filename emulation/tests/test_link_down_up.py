"""A radio that goes down and comes back (root): two dissemd in network
namespaces joined by a veth pair. Mid-transfer the publisher's interface
goes down for 3 s (`ip link set down`) and comes back up. dissemd keeps
running and keeps its group, and the transfer completes byte for byte, the
subscriber asking for what the outage cost."""

import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from root_tests import build_dir, require_root, start_dissemd, stop_processes

require_root("link down/up test")

REPO = Path(__file__).resolve().parents[2]
BUILD = REPO / build_dir()


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, timeout=30)


@pytest.fixture
def pair(tmp_path):
    """Namespaces <prefix>-a and <prefix>-b, veth a0 (10.77.0.1) <-> b0 (10.77.0.2)."""
    prefix = f"dlu{os.getpid() % 100000}"
    a, b = f"{prefix}-a", f"{prefix}-b"
    try:
        _ip("netns", "add", a)
        _ip("netns", "add", b)
        _ip("link", "add", "a0", "netns", a, "type", "veth", "peer", "name", "b0", "netns", b)
        for ns, dev, addr in ((a, "a0", "10.77.0.1/24"), (b, "b0", "10.77.0.2/24")):
            _ip("-n", ns, "addr", "add", addr, "dev", dev)
            _ip("-n", ns, "link", "set", dev, "up")
            _ip("-n", ns, "link", "set", "lo", "up")
        yield a, b
    finally:
        for ns in (a, b):
            subprocess.run(["ip", "netns", "del", ns], capture_output=True, timeout=30)


def _start(ns: str, dev: str, workdir: Path, name: str) -> tuple[subprocess.Popen, Path]:
    sock = workdir / f"{name}.sock"  # a private directory: dissemd refuses a shared one
    proc = start_dissemd(["ip", "netns", "exec", ns, str(BUILD / "src" / "dissemd"), "--interface", dev,
                          "--port", "47400", "--cache", str(workdir / f"{name}.db"), "--socket", str(sock),
                          "--log-level", "warn", "--set", "engine.link_capacity_bps=4000000"],
                         sock, workdir / f"{name}.log", f"{name} in {ns}")
    return proc, sock


def test_a_transfer_survives_the_publishers_interface_going_down_and_up(pair, tmp_path):
    a, b = pair
    dissem = str(BUILD / "src" / "dissem")
    procs = []
    sockets = Path(tempfile.mkdtemp(prefix="dlu-"))  # short, so the socket paths fit in 107 bytes
    try:
        publisher, pub_sock = _start(a, "a0", sockets, "publisher")
        procs.append(publisher)
        subscriber, sub_sock = _start(b, "b0", sockets, "subscriber")
        procs.append(subscriber)
        received = tmp_path / "received"
        received.mkdir()
        listener = subprocess.Popen(["ip", "netns", "exec", b, dissem, "--socket", str(sub_sock), "subscribe", "g",
                                     "--count", "1", "--timeout-s", "120", "--out", str(received)],
                                    stdout=subprocess.DEVNULL, stderr=open(tmp_path / "listener.log", "wb"))
        procs.append(listener)
        time.sleep(1.0)
        payload = tmp_path / "payload.bin"
        payload.write_bytes(os.urandom(3_000_000))  # 6 s of first pass at 4 Mbit/s
        subprocess.run(["ip", "netns", "exec", a, dissem, "--socket", str(pub_sock), "publish", "g", str(payload)],
                       check=True, stdout=subprocess.DEVNULL, timeout=60)
        time.sleep(1.5)
        _ip("-n", a, "link", "set", "a0", "down")
        time.sleep(3.0)
        assert publisher.poll() is None, "dissemd exited when its interface went down"
        _ip("-n", a, "link", "set", "a0", "up")
        assert listener.wait(timeout=150) == 0, (tmp_path / "listener.log").read_text()
        files = list(received.iterdir())
        assert len(files) == 1 and files[0].read_bytes() == payload.read_bytes(), "the message arrived altered"
        assert publisher.poll() is None and subscriber.poll() is None, "a daemon exited"
        stats = json.loads(subprocess.run(["ip", "netns", "exec", b, dissem, "--socket", str(sub_sock), "stats",
                                           "--json"], check=True, capture_output=True, text=True,
                                          timeout=30).stdout)
        assert stats["mfrs"]["sent"] > 0, "the outage cost nothing: it did not hit the transfer"
    finally:
        stop_processes(procs)
        shutil.rmtree(sockets, ignore_errors=True)
