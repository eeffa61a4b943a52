"""A gateway between two networks (root): three namespaces, a publisher on
network A (veth a0 <-> g0, 4 Mbit/s), a subscriber on network B (veth g1 <->
c0, a 2,400 bit/s link as on HF), and a dissemd on both whose interface g1
is a link of its own ([net.interface.g1] link_capacity_bps = 2400): its own
node, pacer, queues, neighbours and cache.

The subscriber wants tracks only. Every track published once the gateway has
heard of that interest reaches it, under the publisher's own id; the 200 KB
file published meanwhile in another group never goes on B's air, and B's
link is never paced at A's rate."""

import json
import os
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from root_tests import build_dir, require_root, start_dissemd, stop_processes

require_root("gateway test")

REPO = Path(__file__).resolve().parents[2]
BUILD = REPO / build_dir()
DISSEM = str(BUILD / "src" / "dissem")
TRACKS = 12


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, timeout=30)


@pytest.fixture
def networks():
    """Namespaces <p>-a, <p>-g, <p>-c: a0 (10.79.0.1) <-> g0 (10.79.0.2), g1 (10.79.1.2) <-> c0 (10.79.1.3)."""
    prefix = f"gw{os.getpid() % 100000}"
    a, g, c = f"{prefix}-a", f"{prefix}-g", f"{prefix}-c"
    try:
        for ns in (a, g, c):
            _ip("netns", "add", ns)
        _ip("link", "add", "a0", "netns", a, "type", "veth", "peer", "name", "g0", "netns", g)
        _ip("link", "add", "g1", "netns", g, "type", "veth", "peer", "name", "c0", "netns", c)
        for ns, dev, addr in ((a, "a0", "10.79.0.1/24"), (g, "g0", "10.79.0.2/24"), (g, "g1", "10.79.1.2/24"),
                              (c, "c0", "10.79.1.3/24")):
            _ip("-n", ns, "addr", "add", addr, "broadcast", "+", "dev", dev)
            _ip("-n", ns, "link", "set", dev, "up")
            _ip("-n", ns, "link", "set", "lo", "up")
        yield a, g, c
    finally:
        for ns in (a, g, c):
            subprocess.run(["ip", "netns", "del", ns], capture_output=True, timeout=30)


def _dissem(ns: str, sock: Path, *args: str, timeout: float = 60) -> str:
    return subprocess.run(["ip", "netns", "exec", ns, DISSEM, "--socket", str(sock), *args], check=True,
                          capture_output=True, text=True, timeout=timeout).stdout


def _start(ns: str, workdir: Path, name: str, args: list) -> tuple:
    sock = workdir / f"{name}.sock"
    proc = start_dissemd(["ip", "netns", "exec", ns, str(BUILD / "src" / "dissemd"), *args, "--port", "47700",
                          "--cache", str(workdir / f"{name}.db"), "--socket", str(sock), "--log-level", "info",
                          "--set", "controllers.forwarding=subscription-aware"],
                         sock, workdir / f"{name}.log", f"{name} in {ns}")
    return proc, sock


def _link_nodes(log: str) -> dict:
    """Each link's node id from the daemon's start-up lines ("main link: g0 ...; node cbeee486, ...")."""
    found = re.findall(r"(\w+) link: \S+ \S+; node ([0-9a-f]+),", log)
    assert found, log
    return dict(found)


def test_a_gateway_carries_only_what_the_slow_side_subscribes_to(networks, tmp_path):
    a, g, c = networks
    procs = []
    work = Path(tempfile.mkdtemp(prefix="gw-"))  # short, so the socket paths fit in 107 bytes
    try:
        config = work / "gateway.toml"
        config.write_text('[net]\ninterfaces = ["g0", "g1"]\n[net.interface.g1]\nlink_capacity_bps = 2400\n'
                          '[engine]\nlink_capacity_bps = 4000000\n')
        gateway, gw_sock = _start(g, work, "gateway", ["--config", str(config)])
        publisher, pub_sock = _start(a, work, "publisher", ["--interface", "a0", "--set",
                                                            "engine.link_capacity_bps=4000000"])
        subscriber, sub_sock = _start(c, work, "subscriber", ["--interface", "c0", "--set",
                                                              "engine.link_capacity_bps=2400"])
        procs += [gateway, publisher, subscriber]
        log = (work / "gateway.log").read_text()
        assert "main link: g0" in log and "g1 link: g1" in log and "2400 bit/s" in log, log

        received = tmp_path / "received"
        received.mkdir()
        listener = subprocess.Popen(["ip", "netns", "exec", c, DISSEM, "--socket", str(sub_sock), "subscribe",
                                     "tracks", "--count", str(TRACKS), "--timeout-s", "240", "--out", str(received)],
                                    stdout=subprocess.DEVNULL, stderr=open(tmp_path / "listener.log", "wb"))
        procs.append(listener)
        # The subscriber's interest crosses B in its beacons, then the gateway hears tracks on A for it.
        deadline = time.monotonic() + 120
        while "bridge: hearing group 'tracks' on link main" not in (work / "gateway.log").read_text():
            assert time.monotonic() < deadline, "the gateway never learnt B's interest: " + (work / "gateway.log").read_text()
            time.sleep(0.2)
        time.sleep(2.0)  # ... and A's publisher hears the gateway's in turn

        big = tmp_path / "file.bin"
        big.write_bytes(os.urandom(200_000))
        _dissem(a, pub_sock, "publish", "files", str(big))
        tracks = []
        for i in range(TRACKS):
            track = tmp_path / f"track-{i}.bin"
            track.write_bytes(os.urandom(134))
            tracks.append(track.read_bytes())
            _dissem(a, pub_sock, "publish", "tracks", str(track), "--priority", "5", "--lifetime-ms", "300000")
            time.sleep(1.0)
        assert listener.wait(timeout=240) == 0, (tmp_path / "listener.log").read_text()
        got = sorted(p.read_bytes() for p in received.iterdir())
        assert got == sorted(tracks), "every track, byte for byte"

        gw = json.loads(_dissem(g, gw_sock, "stats", "--json"))
        side = gw["links"]["g1"]
        assert side["messages"]["carried"] == TRACKS, side["messages"]
        assert side["messages"]["carry_too_late"] == 0
        b_air = sum(k["sent"]["bytes"] for k in side["traffic"].values())
        assert b_air < 40_000, f"B's link sent {b_air} bytes: the 200 KB file must never go there"
        sub_stats = json.loads(_dissem(c, sub_sock, "stats", "--json"))
        assert sub_stats["messages"]["completed"] == TRACKS
        held = _dissem(c, sub_sock, "list", "files")
        assert "whole" not in held, held
        # Each link's neighbours, on their own link: the publisher on the main one, the subscriber on g1.
        peers = json.loads(_dissem(g, gw_sock, "peers", "--json"))["peers"]
        on = {p["node"]: p["link"] for p in peers}
        # Each hears only its side's gateway node. On B's slow link the subscriber learns the gateway's g1
        # node from a beacon, which the gateway sends within a quarter period (3 s here) of hearing the
        # newcomer (Beacons::greet): data carried under the publisher's id does not name it.
        nodes = _link_nodes((work / "gateway.log").read_text())
        deadline = time.monotonic() + 30
        while not (sub_peers := json.loads(_dissem(c, sub_sock, "peers", "--json"))["peers"]):
            assert time.monotonic() < deadline, "the subscriber never heard the gateway's g1 node"
            time.sleep(0.5)
        pub_peers = json.loads(_dissem(a, pub_sock, "peers", "--json"))["peers"]
        assert [p["node"] for p in pub_peers] == [nodes["main"]], (pub_peers, nodes)
        assert [p["node"] for p in sub_peers] == [nodes["g1"]], (sub_peers, nodes)
        assert sorted(on.values()) == ["", "g1"], peers
    finally:
        stop_processes(procs)
        shutil.rmtree(work, ignore_errors=True)
