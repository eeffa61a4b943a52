"""dissem-load publish --offer-for-s against a real dissemd on loopback (no
root): the offer ends on time, the rest of the plan is counted as not
offered, and without the option the whole plan is published."""

import json
import os
import socket
import subprocess
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BUILD = REPO / os.environ.get("DISSEM_BUILD_DIR", "build/debug")


@pytest.fixture
def daemon(tmp_path):
    dissemd, load = BUILD / "src" / "dissemd", BUILD / "src" / "dissem-load"
    if not (os.access(dissemd, os.X_OK) and os.access(load, os.X_OK)):
        pytest.skip(f"no dissemd / dissem-load in {BUILD}: build them or set DISSEM_BUILD_DIR")
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    sock = tmp_path / "d.sock"
    proc = subprocess.Popen([str(dissemd), "--socket", str(sock), "--cache", str(tmp_path / "cache.db"),
                             "--port", str(port), "--log-level", "warn"],
                            stdout=subprocess.DEVNULL, stderr=open(tmp_path / "dissemd.stderr", "wb"))
    deadline = time.monotonic() + 30
    while not sock.exists() and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    if not sock.exists():
        proc.kill()
        pytest.fail("dissemd did not start: " + (tmp_path / "dissemd.stderr").read_text())
    yield load, sock
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=5)


def publish(load, sock, *extra):
    started = time.monotonic()
    proc = subprocess.run([str(load), "publish", "--socket", str(sock), "--group", "tracks", "--stream",
                           "track,count=100,bytes=134,rate_hz=20", *extra], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.splitlines()[-1]), time.monotonic() - started


def test_offer_for_s_ends_the_offer_on_time(daemon):
    load, sock = daemon
    result, wall = publish(load, sock, "--offer-for-s", "1")
    # 20 a second for 1 s: messages 0..19 (produced at 0, 0.05, ... 0.95 s).
    assert result["offer_for_s"] == 1
    assert result["messages_published"] + result["not_offered"] == 100
    assert 15 <= result["messages_published"] <= 20
    assert wall < 4


def test_without_it_the_whole_plan_is_published(daemon):
    load, sock = daemon
    result, wall = publish(load, sock)
    assert result["messages_published"] == 100 and "not_offered" not in result
    assert wall >= 4.9
