"""IPv6 (root): dissemd over link-local IPv6 multicast (ff02::4242).

- Three namespaces joined by two veth pairs: a0 <-> b0 carries IPv6 only (no
  IPv4 address at all), a1 <-> c0 IPv4 only. The node in the middle runs
  IPv6 on one interface ([net.interface.a0] group = "ff02::4242") and IPv4
  on the other, and floods what it hears: a message published over IPv6
  reaches the IPv4 side and one published over IPv4 the IPv6 side, byte for
  byte, and fragments are 20 bytes smaller than over IPv4 (40-byte headers).
- Through dissem-emu with --ipv6: three nodes on the emulated link, every
  datagram an IPv6 frame through the emulator's TAPs.
- Started before its radio: dissemd waits (net.interface_wait_s) for an
  interface that does not exist yet, or whose link-local address is still
  tentative, and stops naming it when it never comes.

Linux routes no IPv6 multicast on lo, so the one-host case uses a veth pair
in namespaces the test makes and removes."""

import json
import os
import shutil
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

import pytest

from root_tests import build_dir, require_root, start_dissemd, stop_processes

require_root("IPv6 tests")

REPO = Path(__file__).resolve().parents[2]
BUILD = REPO / build_dir()
EMU = Path(os.environ.get("DISSEM_EMU", BUILD / "emulation" / "emu" / "dissem-emu"))
GROUP = "ff02::4242"


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, timeout=30)


def _sysctl_in(ns: str, key: str, value: str) -> None:
    subprocess.run(["ip", "netns", "exec", ns, "sysctl", "-qw", f"{key}={value}"], check=True, capture_output=True,
                   timeout=30)


def _wait_link_local(ns: str, dev: str) -> None:
    """The kernel adds a link-local address shortly after the link is up."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        out = subprocess.run(["ip", "-n", ns, "-6", "addr", "show", "dev", dev, "scope", "link"], capture_output=True,
                             text=True, timeout=30).stdout
        if "inet6 fe80" in out and "tentative" not in out:
            return
        time.sleep(0.05)
    pytest.fail(f"{ns}/{dev} got no link-local IPv6 address within 10 s")


@pytest.fixture
def three(tmp_path):
    """Namespaces <p>-a, <p>-b, <p>-c; a0 <-> b0 IPv6 only, a1 <-> c0 IPv4 (10.78.0.0/24)."""
    prefix = f"v6{os.getpid() % 100000}"
    a, b, c = f"{prefix}-a", f"{prefix}-b", f"{prefix}-c"
    try:
        for ns in (a, b, c):
            _ip("netns", "add", ns)
            # A link-local address usable at once: no duplicate address detection.
            for scope in ("all", "default"):
                _sysctl_in(ns, f"net.ipv6.conf.{scope}.accept_dad", "0")
        _ip("link", "add", "a0", "netns", a, "type", "veth", "peer", "name", "b0", "netns", b)
        _ip("link", "add", "a1", "netns", a, "type", "veth", "peer", "name", "c0", "netns", c)
        _ip("-n", a, "addr", "add", "10.78.0.1/24", "broadcast", "+", "dev", "a1")
        _ip("-n", c, "addr", "add", "10.78.0.3/24", "broadcast", "+", "dev", "c0")
        _sysctl_in(c, "net.ipv6.conf.c0.disable_ipv6", "1")  # the IPv4 side has no IPv6 at all
        for ns, devs in ((a, ("a0", "a1")), (b, ("b0",)), (c, ("c0",))):
            _ip("-n", ns, "link", "set", "lo", "up")
            for dev in devs:
                _ip("-n", ns, "link", "set", dev, "up")
        for ns, dev in ((a, "a0"), (b, "b0")):
            _wait_link_local(ns, dev)
        yield a, b, c
    finally:
        for ns in (a, b, c):
            subprocess.run(["ip", "netns", "del", ns], capture_output=True, timeout=30)


def _start(ns: str, args: list, workdir: Path, name: str) -> tuple:
    sock = workdir / f"{name}.sock"
    proc = start_dissemd(["ip", "netns", "exec", ns, str(BUILD / "src" / "dissemd"), *args, "--port", "47600",
                          "--cache", str(workdir / f"{name}.db"), "--socket", str(sock), "--log-level", "info",
                          "--set", "engine.link_capacity_bps=8000000"], sock, workdir / f"{name}.log",
                         f"{name} in {ns}")
    return proc, sock


def _subscribe(ns: str, sock: Path, group: str, out: Path, log: Path) -> subprocess.Popen:
    out.mkdir()
    return subprocess.Popen(["ip", "netns", "exec", ns, str(BUILD / "src" / "dissem"), "--socket", str(sock),
                             "subscribe", group, "--count", "1", "--timeout-s", "60", "--out", str(out)],
                            stdout=subprocess.DEVNULL, stderr=open(log, "wb"))


def _publish(ns: str, sock: Path, group: str, payload: Path) -> None:
    subprocess.run(["ip", "netns", "exec", ns, str(BUILD / "src" / "dissem"), "--socket", str(sock), "publish", group,
                    str(payload)], check=True, stdout=subprocess.DEVNULL, timeout=60)


def _stats(ns: str, sock: Path) -> dict:
    return json.loads(subprocess.run(["ip", "netns", "exec", ns, str(BUILD / "src" / "dissem"), "--socket", str(sock),
                                      "stats", "--json"], check=True, capture_output=True, text=True,
                                     timeout=30).stdout)


def _received(out: Path, listener: subprocess.Popen, log: Path) -> bytes:
    assert listener.wait(timeout=90) == 0, log.read_text()
    files = list(out.iterdir())
    assert len(files) == 1, files
    return files[0].read_bytes()


def test_a_node_with_ipv6_on_one_interface_and_ipv4_on_the_other_carries_both_ways(three, tmp_path):
    a, b, c = three
    procs = []
    sockets = Path(tempfile.mkdtemp(prefix="v6-"))  # short, so the socket paths fit in 107 bytes
    try:
        config = sockets / "gateway.toml"
        config.write_text(f'[net]\ninterfaces = ["a0", "a1"]\n[net.interface.a0]\ngroup = "{GROUP}"\n'
                          '[controllers]\nforwarding = "flooding"\n')
        gateway, gw_sock = _start(a, ["--config", str(config)], sockets, "gateway")
        procs.append(gateway)
        v6, v6_sock = _start(b, ["--interface", "b0", "--set", f"net.group={GROUP}"], sockets, "v6")
        procs.append(v6)
        v4, v4_sock = _start(c, ["--interface", "c0"], sockets, "v4")
        procs.append(v4)
        log = (sockets / "gateway.log").read_text()
        assert f"a0 [{GROUP}%a0]:47600" in log and "a1 239.255.42.99:47600" in log, log
        assert "fragments of 1380 bytes" in log, "an IPv6 interface's 40-byte header sizes the fragments: " + log
        assert "fragments of 1400 bytes" in (sockets / "v4.log").read_text()

        to_v4 = _subscribe(c, v4_sock, "g", tmp_path / "at-v4", tmp_path / "to-v4.log")
        to_v6 = _subscribe(b, v6_sock, "h", tmp_path / "at-v6", tmp_path / "to-v6.log")
        procs += [to_v4, to_v6]
        time.sleep(1.0)
        from_v6, from_v4 = tmp_path / "from-v6.bin", tmp_path / "from-v4.bin"
        from_v6.write_bytes(os.urandom(300_000))
        from_v4.write_bytes(os.urandom(200_000))
        _publish(b, v6_sock, "g", from_v6)
        _publish(c, v4_sock, "h", from_v4)
        assert _received(tmp_path / "at-v4", to_v4, tmp_path / "to-v4.log") == from_v6.read_bytes()
        assert _received(tmp_path / "at-v6", to_v6, tmp_path / "to-v6.log") == from_v4.read_bytes()
        for ns, sock in ((a, gw_sock), (b, v6_sock), (c, v4_sock)):
            stats = _stats(ns, sock)
            assert stats["malformed"]["total"] == 0, f"{ns}: malformed datagrams: {stats['malformed']}"
            # The kernel filter (or the transport) drops our own looped-back datagrams, IPv6 ones too.
            assert stats["own_datagrams_ignored"] == 0, f"{ns}: own datagrams reached the engine"
        assert all(p.poll() is None for p in (gateway, v6, v4)), "a daemon exited"
    finally:
        stop_processes(procs)
        shutil.rmtree(sockets, ignore_errors=True)


@pytest.fixture
def bare_pair():
    """Namespaces <p>-a and <p>-b with no link between them yet; duplicate address detection on, 5 probes (the
    kernel's 1 s apart) in b, so a new link-local address there stays tentative for about 5 s."""
    prefix = f"w6{os.getpid() % 100000}"
    a, b = f"{prefix}-a", f"{prefix}-b"
    try:
        for ns in (a, b):
            _ip("netns", "add", ns)
            _ip("-n", ns, "link", "set", "lo", "up")
        _sysctl_in(b, "net.ipv6.conf.default.dad_transmits", "5")
        yield a, b
    finally:
        for ns in (a, b):
            subprocess.run(["ip", "netns", "del", ns], capture_output=True, timeout=30)


def test_dissemd_started_before_its_radio_waits_for_it(bare_pair, tmp_path):
    """At boot a radio may come up after the daemon: a's interface does not exist when dissemd starts, and b's
    link-local address is still tentative (duplicate address detection) when its dissemd starts. Both wait
    (net.interface_wait_s), say what for, and then carry a message over IPv6."""
    a, b = bare_pair
    procs = []
    sockets = Path(tempfile.mkdtemp(prefix="w6-"))
    try:
        early = subprocess.Popen(["ip", "netns", "exec", a, str(BUILD / "src" / "dissemd"), "--interface", "a0",
                                  "--set", f"net.group={GROUP}", "--port", "47600", "--cache", str(sockets / "a.db"),
                                  "--socket", str(sockets / "a.sock"), "--log-level", "info"],
                                 stdout=subprocess.DEVNULL, stderr=open(sockets / "a.log", "wb"))
        procs.append(early)
        deadline = time.monotonic() + 20
        while "waiting up to 30 s for interface 'a0'" not in (sockets / "a.log").read_text():
            assert early.poll() is None and time.monotonic() < deadline, (sockets / "a.log").read_text()
            time.sleep(0.05)
        assert "not found" in (sockets / "a.log").read_text()
        _ip("link", "add", "a0", "netns", a, "type", "veth", "peer", "name", "b0", "netns", b)
        _ip("-n", a, "link", "set", "a0", "up")
        _ip("-n", b, "link", "set", "b0", "up")
        late, late_sock = _start(b, ["--interface", "b0", "--set", f"net.group={GROUP}"], sockets, "b")
        procs.append(late)
        b_log = (sockets / "b.log").read_text()
        assert "waiting up to 30 s for interface 'b0'" in b_log and "interface 'b0' is ready" in b_log, b_log
        assert "is still tentative (duplicate address detection)" in b_log, b_log
        deadline = time.monotonic() + 30
        while not (sockets / "a.sock").exists():
            assert early.poll() is None and time.monotonic() < deadline, (sockets / "a.log").read_text()
            time.sleep(0.05)
        assert "interface 'a0' is ready" in (sockets / "a.log").read_text()

        listener = _subscribe(b, late_sock, "g", tmp_path / "at-b", tmp_path / "b-sub.log")
        procs.append(listener)
        time.sleep(1.0)
        payload = tmp_path / "payload.bin"
        payload.write_bytes(os.urandom(100_000))
        _publish(a, sockets / "a.sock", "g", payload)
        assert _received(tmp_path / "at-b", listener, tmp_path / "b-sub.log") == payload.read_bytes()
    finally:
        stop_processes(procs)
        shutil.rmtree(sockets, ignore_errors=True)


def test_an_interface_that_never_comes_stops_start_up_naming_it_and_the_key(bare_pair, tmp_path):
    a, _ = bare_pair
    result = subprocess.run(["ip", "netns", "exec", a, str(BUILD / "src" / "dissemd"), "--interface", "radio9",
                             "--set", "net.interface_wait_s=1", "--cache", str(tmp_path / "c.db"), "--socket",
                             str(tmp_path / "d.sock")], capture_output=True, text=True, timeout=60)
    assert result.returncode != 0
    assert "interface 'radio9' is still not ready after 1 s (net.interface_wait_s)" in result.stderr, result.stderr
    assert "not found" in result.stderr, result.stderr


def test_dissemd_over_ipv6_through_the_emulator(tmp_path):
    if not EMU.is_file():
        pytest.fail(f"dissem-emu not found at {EMU}")
    prefix = "e6" + uuid.uuid4().hex[:6]
    emu = subprocess.Popen([str(EMU), "--prefix", prefix, "--nodes", "3", "--seed", "7", "--ipv6",
                            "--stats-json", str(tmp_path / "emu.json")],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    procs = []
    sockets = Path(tempfile.mkdtemp(prefix="e6-"))
    try:
        line = emu.stdout.readline()
        assert line, "dissem-emu exited: " + emu.stderr.read()
        ready = json.loads(line)
        spaces = [n["namespace"] for n in ready["nodes"]]
        for ns in spaces:
            _wait_link_local(ns, "emu0")
        daemons = [_start(ns, ["--interface", "emu0", "--set", f"net.group={GROUP}"], sockets, f"n{i + 1}")
                   for i, ns in enumerate(spaces)]
        procs += [p for p, _ in daemons]
        listeners = [_subscribe(spaces[i], daemons[i][1], "g", tmp_path / f"at-n{i + 1}", tmp_path / f"n{i + 1}.log")
                     for i in (1, 2)]
        procs += listeners
        time.sleep(1.0)
        payload = tmp_path / "payload.bin"
        payload.write_bytes(os.urandom(200_000))
        _publish(spaces[0], daemons[0][1], "g", payload)
        for i, listener in zip((1, 2), listeners):
            assert _received(tmp_path / f"at-n{i + 1}", listener, tmp_path / f"n{i + 1}.log") == payload.read_bytes()
    finally:
        stop_processes(procs)
        if emu.poll() is None:
            emu.terminate()
            emu.wait(timeout=30)
        subprocess.run([str(EMU), "--cleanup", prefix], capture_output=True, timeout=30)
        shutil.rmtree(sockets, ignore_errors=True)
    stats = json.loads((tmp_path / "emu.json").read_text())
    assert stats["config"]["ipv6"] is True, stats["config"]
