"""A full disk (root): the subscriber's cache on a 2 MB tmpfs, a 5 MB
message published to it over loopback. The disk fills mid-transfer:
dissemd keeps running, says why in its log, its stats and an event, stops
taking data, and refuses a publication with a clear error. The tmpfs then
grows (as if space were freed), the daemon notices on its next try, asks
for what it missed, and the message arrives byte for byte. The cache's
database passes SQLite's integrity check afterwards."""

import json
import os
import shutil
import sqlite3
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from root_tests import build_dir, require_root, start_dissemd, stop_processes

require_root("full disk test")

REPO = Path(__file__).resolve().parents[2]
BUILD = REPO / build_dir()
DISSEM = str(BUILD / "src" / "dissem")


@pytest.fixture
def small_disk():
    mount = Path(tempfile.mkdtemp(prefix="dfd-disk-"))
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m,mode=0700", "tmpfs", str(mount)], check=True, timeout=30)
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True, timeout=30)
        shutil.rmtree(mount, ignore_errors=True)


def _start(workdir: Path, name: str, cache: Path, port: int) -> tuple[subprocess.Popen, Path]:
    sock = workdir / f"{name}.sock"
    proc = start_dissemd([str(BUILD / "src" / "dissemd"), "--interface", "lo", "--port", str(port), "--cache",
                          str(cache), "--socket", str(sock), "--log-level", "warn", "--set",
                          "engine.link_capacity_bps=20000000"], sock, workdir / f"{name}.log", name)
    return proc, sock


def _stats(sock: Path) -> dict:
    out = subprocess.run([DISSEM, "--socket", str(sock), "stats", "--json"], check=True, capture_output=True,
                         text=True, timeout=30).stdout
    return json.loads(out)


def test_a_full_disk_pauses_the_subscriber_and_the_transfer_completes_once_space_returns(small_disk, tmp_path):
    port = 20000 + os.getpid() % 20000
    work = Path(tempfile.mkdtemp(prefix="dfd-"))  # short, so the socket paths fit in 107 bytes
    procs = []
    try:
        publisher, pub_sock = _start(work, "publisher", work / "publisher.db", port)
        procs.append(publisher)
        subscriber, sub_sock = _start(work, "subscriber", small_disk / "cache.db", port)
        procs.append(subscriber)
        received = tmp_path / "received"
        received.mkdir()
        listener = subprocess.Popen([DISSEM, "--socket", str(sub_sock), "subscribe", "g", "--count", "1",
                                     "--timeout-s", "150", "--out", str(received)],
                                    stdout=subprocess.DEVNULL, stderr=open(tmp_path / "listener.log", "wb"))
        procs.append(listener)
        time.sleep(1.0)
        payload = tmp_path / "payload.bin"
        payload.write_bytes(os.urandom(5_000_000))
        subprocess.run([DISSEM, "--socket", str(pub_sock), "publish", "g", str(payload)], check=True,
                       stdout=subprocess.DEVNULL, timeout=60)

        deadline = time.monotonic() + 30
        stats = _stats(sub_sock)
        while not stats["cache"]["paused"] and time.monotonic() < deadline:
            time.sleep(0.2)
            stats = _stats(sub_sock)
        assert stats["cache"]["paused"], f"the disk never filled: {stats['cache']}"
        assert stats["cache"]["write_failures"] >= 1
        assert subscriber.poll() is None, "dissemd exited on a full disk"
        time.sleep(2.0)
        assert subscriber.poll() is None and listener.poll() is None
        refused = subprocess.run([DISSEM, "--socket", str(sub_sock), "publish", "g", str(payload)],
                                 capture_output=True, text=True, timeout=60)
        assert refused.returncode != 0, "a publication on a full disk was acknowledged"
        assert "cache could not" in refused.stderr, refused.stderr
        assert "cannot write" in (work / "subscriber.log").read_text()

        subprocess.run(["mount", "-o", "remount,size=64m", str(small_disk)], check=True, timeout=30)
        assert listener.wait(timeout=150) == 0, (tmp_path / "listener.log").read_text()
        files = list(received.iterdir())
        assert len(files) == 1 and files[0].read_bytes() == payload.read_bytes(), "the message arrived altered"
        stats = _stats(sub_sock)
        assert not stats["cache"]["paused"]
        assert stats["mfrs"]["sent"] > 0, "nothing was asked for again after the pause"
        assert "writes again" in (work / "subscriber.log").read_text()
        assert publisher.poll() is None and subscriber.poll() is None, "a daemon exited"

        subscriber.terminate()
        assert subscriber.wait(timeout=20) == 0
        with sqlite3.connect(small_disk / "cache.db") as db:
            assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        stop_processes(procs)
        shutil.rmtree(work, ignore_errors=True)
