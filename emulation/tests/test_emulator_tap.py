"""dissem-emu through the real TAP path: namespaces, UDP sockets, the kernel.

Needs root (network namespaces, /dev/net/tun). Without root the module is
skipped, loudly; with DISSEM_REQUIRE_ROOT_TESTS=1 it fails instead, so a CI
that must run these cannot pass by skipping them.

The emulator binary: $DISSEM_EMU, default build/debug/emulation/emu/dissem-emu
under the repository root. Every test uses its own prefix, and every
emulator it starts is stopped and its namespaces removed by a finalizer,
whatever happens. Traffic goes only between namespaces these tests make.
"""

import json
import os
import signal
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
EMU = Path(os.environ.get("DISSEM_EMU", REPO / "build/debug/emulation/emu/dissem-emu"))
PROBE = Path(__file__).resolve().parent / "udp_probe.py"

if os.geteuid() != 0:
    reason = "!!! dissem-emu TAP tests NOT RUN: they need root (network namespaces, /dev/net/tun) !!!"
    if os.environ.get("DISSEM_REQUIRE_ROOT_TESTS") == "1":
        pytest.fail(reason + " (DISSEM_REQUIRE_ROOT_TESTS=1)", pytrace=False)
    pytest.skip(reason, allow_module_level=True)

if not EMU.is_file():
    pytest.fail(f"dissem-emu binary not found at {EMU} (build it, or set DISSEM_EMU)", pytrace=False)


# ---------------------------------------------------------------- helpers


def namespaces(prefix):
    out = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True, check=True).stdout
    names = [line.split()[0] for line in out.splitlines() if line.strip()]
    return [n for n in names if n.startswith(prefix + "-n") and n[len(prefix) + 2 :].isdigit()]


def root_links(prefix):
    out = subprocess.run(["ip", "-br", "link"], capture_output=True, text=True, check=True).stdout
    return [line.split()[0] for line in out.splitlines() if line.startswith(prefix + "-")]


def cleanup(prefix):
    return subprocess.run([str(EMU), "--cleanup", prefix], capture_output=True, text=True, timeout=30)


class Emulator:
    """One running dissem-emu; stop() is safe to call more than once."""

    def __init__(self, prefix, nodes, tmp_path, eel=None, extra=()):
        self.prefix = prefix
        self.stats_path = tmp_path / f"{prefix}-stats.json"
        args = [str(EMU), "--prefix", prefix, "--nodes", str(nodes), "--seed", "7",
                "--stats-json", str(self.stats_path), *extra]
        if eel is not None:
            eel_path = tmp_path / f"{prefix}.eel"
            eel_path.write_text(eel)
            args += ["--eel", str(eel_path)]
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()  # the emulator prints it within seconds or exits
        self.ready_at = time.time_ns()  # the probes stamp CLOCK_REALTIME
        if not line:
            self.proc.wait(timeout=30)
            raise AssertionError(f"dissem-emu exited {self.proc.returncode}: {self.proc.stderr.read()}")
        self.ready = json.loads(line)
        self.stderr = ""

    def ns(self, node):
        return self.ready["nodes"][node - 1]["namespace"]

    def address(self, node):
        return self.ready["nodes"][node - 1]["address"]

    def interface(self, node):
        return self.ready["nodes"][node - 1]["interface"]

    def stop(self, sig=signal.SIGTERM):
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        if self.proc.stderr and not self.proc.stderr.closed:
            self.stderr = self.proc.stderr.read()
            self.proc.stderr.close()
            self.proc.stdout.close()
        return self.proc.returncode

    def stats(self):
        return json.loads(self.stats_path.read_text())


@pytest.fixture
def prefix():
    name = "et" + uuid.uuid4().hex[:6]
    yield name
    # Whatever the test did: nothing of this prefix may stay on the host.
    if namespaces(name):
        cleanup(name)
    assert namespaces(name) == [], "namespaces left behind"
    assert root_links(name) == [], "links left behind in the root namespace"


@pytest.fixture
def emulator(prefix, tmp_path):
    started = []

    def start(nodes, eel=None, extra=(), name=None):
        emu = Emulator(name or prefix, nodes, tmp_path, eel, extra)
        started.append(emu)
        return emu

    yield start
    for emu in started:
        emu.stop()
        cleanup(emu.prefix)


def in_ns(ns, *args):
    return ["ip", "netns", "exec", ns, sys.executable, str(PROBE), *args]


class Receivers:
    """udp_probe receivers in several namespaces, each ready before returning."""

    def __init__(self, emu, nodes, port, tmp_path, seconds=15.0, idle=1.0):
        self.emu = emu
        self.outs = {}
        self.procs = {}
        for n in nodes:
            out = tmp_path / f"recv-{emu.prefix}-{n}-{port}.json"
            self.outs[n] = out
            p = subprocess.Popen(in_ns(emu.ns(n), "recv", "--port", str(port), "--seconds", str(seconds),
                                       "--idle", str(idle), "--out", str(out), "--interface", emu.interface(n)),
                                 stdout=subprocess.PIPE, text=True)
            self.procs[n] = p
        for n, p in self.procs.items():
            assert p.stdout.readline().strip() == "ready", f"receiver in node {n} did not start"

    def results(self, sender, timeout=30):
        """Rows each receiver got from node `sender` (not its own looped-back broadcasts)."""
        rows = {}
        source = self.emu.address(sender)
        for n, p in self.procs.items():
            p.wait(timeout=timeout)
            p.stdout.close()
            rows[n] = [r for r in json.loads(self.outs[n].read_text()) if r[3] == source]
        return rows

    def kill(self):
        for p in self.procs.values():
            if p.poll() is None:
                p.kill()
                p.wait()


@pytest.fixture
def receivers():
    made = []

    def start(*args, **kwargs):
        r = Receivers(*args, **kwargs)
        made.append(r)
        return r

    yield start
    for r in made:
        r.kill()


def send(emu, node, dest, port, count, rate, size=64):
    subprocess.run(in_ns(emu.ns(node), "send", "--dest", dest, "--port", str(port), "--count", str(count),
                         "--rate", str(rate), "--size", str(size), "--interface", emu.interface(node)),
                   check=True, timeout=count / rate + 30)


def link(stats, frm, to):
    for entry in stats["links"]:
        if entry["from"] == frm and entry["to"] == to:
            return entry
    return {"offered": 0, "delivered": 0, "lost": 0, "queue_dropped": 0, "duplicated": 0}


def broadcast(emu):
    return emu.ready["broadcast"]


# ---------------------------------------------------------------- accuracy


def test_loss_20_percent_and_stats_agree_with_receivers(emulator, receivers, tmp_path):
    # Node 2 receives from node 1 with 20 % loss; node 3's link is untouched.
    emu = emulator(3, eel="0 nem:1 commeffect nem:2,0,0,20,0,0,0\n")
    recv = receivers(emu, [2, 3], 5001, tmp_path)
    frames = 10_000
    send(emu, 1, broadcast(emu), 5001, frames, rate=5000)
    got = recv.results(sender=1)
    assert emu.stop() == 0

    loss = 1 - len(got[2]) / frames
    print(f"loss on 1->2: {loss:.4f} (configured 0.20) over {frames} frames")
    assert 0.18 <= loss <= 0.22
    assert len(got[3]) == frames
    assert len({row[0] for row in got[2]}) == len(got[2]), "no duplicates were configured"

    stats = emu.stats()
    assert stats["seed"] == 7
    assert stats["run"]["stopped_by"] == "SIGTERM"
    assert stats["nodes"][0]["frames_sent"] == frames
    l12, l13 = link(stats, 1, 2), link(stats, 1, 3)
    assert l12["offered"] == frames and l13["offered"] == frames
    assert l12["delivered"] == len(got[2])
    assert l12["lost"] == frames - len(got[2])
    assert l13["delivered"] == len(got[3])
    assert stats["nodes"][1]["frames_received"] == len(got[2])


def test_256_kbit_link_paces_within_5_percent(emulator, receivers, tmp_path):
    emu = emulator(2, eel="0 nem:1 commeffect nem:2,0,0,0,0,256000,256000\n")
    recv = receivers(emu, [2], 5002, tmp_path)
    payload = 1000
    frame_bytes = payload + 8 + 20 + 14  # UDP, IPv4, Ethernet: what the emulator serialises
    # Offer about twice the link rate for ~4 s: the queue stays full, so the
    # receiver sees the link's rate, not the sender's.
    rate = 2 * 256_000 / (8 * frame_bytes)
    send(emu, 1, broadcast(emu), 5002, count=int(rate * 4), rate=rate, size=payload)
    got = recv.results(sender=1)
    assert emu.stop() == 0

    arrivals = sorted(row[2] for row in got[2])[5:]  # skip the start, when the queue was filling
    seconds = (arrivals[-1] - arrivals[0]) / 1e9
    measured = (len(arrivals) - 1) * frame_bytes * 8 / seconds
    print(f"256 kbit/s link: measured {measured:.0f} bit/s over {seconds:.2f} s ({len(arrivals)} frames)")
    assert abs(measured - 256_000) <= 0.05 * 256_000
    assert link(emu.stats(), 1, 2)["queue_dropped"] > 0


def test_latency_40ms_and_jitter_bounds(emulator, receivers, tmp_path):
    # 1->2: 40 ms, no jitter. 1->3: 40 ms + uniform [0, 10 ms].
    emu = emulator(3, eel="0 nem:1 commeffect nem:2,0.040,0,0,0,0,0\n"
                          "0 nem:1 commeffect nem:3,0.040,0.010,0,0,0,0\n")
    recv = receivers(emu, [2, 3], 5003, tmp_path)
    send(emu, 1, broadcast(emu), 5003, count=300, rate=150)
    got = recv.results(sender=1)
    assert emu.stop() == 0

    fixed = sorted((row[2] - row[1]) / 1e6 for row in got[2])
    jittered = sorted((row[2] - row[1]) / 1e6 for row in got[3])
    assert len(fixed) == 300 and len(jittered) == 300
    p95 = fixed[int(0.95 * len(fixed))]
    print(f"40 ms link: min {fixed[0]:.3f} median {statistics.median(fixed):.3f} p95 {p95:.3f} max {fixed[-1]:.3f} ms")
    print(f"40+[0,10] ms link: min {jittered[0]:.3f} median {statistics.median(jittered):.3f} max {jittered[-1]:.3f} ms")
    assert fixed[0] >= 40.0, "a frame arrived before its latency"
    assert abs(statistics.median(fixed) - 40.0) <= 2.0
    assert p95 <= 42.0
    # Jitter: never early, within [40, 50] ms (+2 ms for the host), and actually spread.
    assert jittered[0] >= 40.0
    assert jittered[int(0.95 * len(jittered))] <= 52.0
    assert jittered[-1] - jittered[0] >= 7.0
    assert 43.0 <= statistics.median(jittered) <= 47.0


def test_asymmetric_link_passes_nothing_one_way(emulator, receivers, tmp_path):
    # Node 2 does not hear node 1; node 1 hears node 2.
    emu = emulator(2, eel="0 nem:1 commeffect nem:2,0,0,100,0,0,0\n")
    recv = receivers(emu, [1, 2], 5004, tmp_path, seconds=4, idle=4)
    send(emu, 1, broadcast(emu), 5004, count=300, rate=300)
    send(emu, 2, broadcast(emu), 5004, count=300, rate=300)
    from_1, from_2 = recv.results(sender=1), recv.results(sender=2)
    assert emu.stop() == 0
    assert len(from_1[2]) == 0
    assert len(from_2[1]) == 300
    stats = emu.stats()
    assert link(stats, 1, 2)["lost"] == link(stats, 1, 2)["offered"] == 300


def test_unicast_reaches_only_its_owner(emulator, receivers, tmp_path):
    emu = emulator(3)
    recv = receivers(emu, [2, 3], 5005, tmp_path, seconds=4, idle=4)
    send(emu, 1, emu.address(2), 5005, count=200, rate=200)  # ARP first, then unicast frames
    got = recv.results(sender=1)
    assert emu.stop() == 0
    assert len(got[2]) == 200
    assert len(got[3]) == 0
    stats = emu.stats()
    assert stats["nodes"][0]["unicast_sent"] >= 200
    assert link(stats, 1, 3)["delivered"] <= 3  # ARP requests only


def test_scheduled_partition_applies_at_run_time(emulator, receivers, tmp_path):
    # From 1.0 s after the ready line, node 2 stops hearing node 1.
    emu = emulator(2, eel="1.0 nem:1 commeffect nem:2,0,0,100,0,0,0\n")
    recv = receivers(emu, [2], 5006, tmp_path, seconds=5, idle=5)
    # Wait so the sending window (~0.5 s .. 2.0 s after ready) spans the change.
    time.sleep(max(0.0, 0.5 - (time.time_ns() - emu.ready_at) / 1e9))
    send(emu, 1, broadcast(emu), 5006, count=300, rate=200)
    got = recv.results(sender=1)
    assert emu.stop() == 0
    sent_after_ready = sorted((row[1] - emu.ready_at) / 1e9 for row in got[2])
    print(f"partition at 1.0 s: last frame received was sent at {sent_after_ready[-1]:.3f} s")
    assert sent_after_ready, "nothing received before the partition"
    assert sent_after_ready[-1] < 1.02
    assert sent_after_ready[-1] > 0.9
    assert emu.stats()["run"]["eel_events_applied"] == 1


# ---------------------------------------------------------------- outputs


def test_pcap_is_readable_by_tshark(emulator, receivers, tmp_path):
    pcaps = tmp_path / "pcap"
    pcaps.mkdir()
    emu = emulator(2, extra=["--pcap-dir", str(pcaps)])
    recv = receivers(emu, [2], 5007, tmp_path, seconds=3, idle=1)
    send(emu, 1, broadcast(emu), 5007, count=25, rate=100)
    got = recv.results(sender=1)
    assert emu.stop() == 0
    assert len(got[2]) == 25

    def udp_frames(path):
        out = subprocess.run(["tshark", "-r", str(path), "-Y", "udp.dstport == 5007", "-T", "fields",
                              "-e", "eth.src", "-e", "ip.dst"],
                             capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, out.stderr
        return [line.split("\t") for line in out.stdout.splitlines() if line]

    sent = udp_frames(pcaps / "n1.pcap")
    received = udp_frames(pcaps / "n2.pcap")
    assert len(sent) == 25 and len(received) == 25
    mac1 = emu.ready["nodes"][0]["mac"]
    assert all(src == mac1 and dst == broadcast(emu) for src, dst in sent + received)


# ---------------------------------------------------------------- a host on two networks


def test_a_second_network_joins_a_node_of_the_first(emulator, receivers, tmp_path):
    """Network B's node 1 is network A's node 2 (--join): that host has emu0
    on A and emu1 on B, each network's frames stay on it, and B's teardown
    leaves A's namespace (without emu1) to A."""
    a = emulator(2)
    host = a.ns(2)
    b = emulator(2, name=a.prefix + "b", extra=["--subnet", "10.78.0.0/24", "--interface", "emu1",
                                                "--join", f"1={host}"])
    assert b.ns(1) == host and b.ready["nodes"][0]["interface"] == "emu1"
    assert namespaces(b.prefix) == [f"{b.prefix}-n2"], "a joined namespace is not B's own"
    on_host = receivers(b, [1], 5011, tmp_path)
    on_a = receivers(a, [1], 5011, tmp_path)
    send(b, 2, broadcast(b), 5011, 50, rate=500)
    assert len(on_host.results(sender=2)[1]) == 50, "B's broadcast reaches the host through emu1"
    on_a.results(sender=1)
    assert json.loads(on_a.outs[1].read_text()) == [], "nothing of B's reaches A's other node"
    assert b.stop() == 0
    assert namespaces(b.prefix) == []
    left = subprocess.run(["ip", "-n", host, "-br", "link"], capture_output=True, text=True, check=True).stdout
    assert "emu0" in left and "emu1" not in left, left
    assert a.stop() == 0
    assert namespaces(a.prefix) == []


def test_join_of_a_missing_namespace_stops_start_up(prefix, tmp_path):
    proc = subprocess.run([str(EMU), "--prefix", prefix, "--nodes", "2", "--join", f"2={prefix}-none"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and proc.stdout == ""
    assert f"--join 2={prefix}-none: no such network namespace" in proc.stderr
    assert namespaces(prefix) == [] and root_links(prefix) == []


# ---------------------------------------------------------------- teardown


def test_sigterm_teardown_leaves_nothing(prefix, tmp_path):
    emu = Emulator(prefix, 3, tmp_path)
    try:
        assert len(namespaces(prefix)) == 3
        assert [n["interface"] for n in emu.ready["nodes"]] == ["emu0"] * 3
        assert emu.stop() == 0
        assert namespaces(prefix) == []
        assert root_links(prefix) == []
        assert emu.stats()["run"]["stopped_by"] == "SIGTERM"
    finally:
        emu.stop()


def test_duration_ends_the_run(prefix, tmp_path):
    emu = Emulator(prefix, 2, tmp_path, extra=["--duration", "0.5"])
    try:
        assert emu.proc.wait(timeout=20) == 0
        assert namespaces(prefix) == []
        assert emu.stats()["run"]["stopped_by"] == "duration"
    finally:
        emu.stop()


def test_sigkill_then_cleanup_removes_everything(prefix, tmp_path):
    emu = Emulator(prefix, 3, tmp_path)
    try:
        emu.stop(signal.SIGKILL)
        # The TAPs die with their descriptors; the namespaces stay until --cleanup.
        assert len(namespaces(prefix)) == 3
        result = cleanup(prefix)
        assert result.returncode == 0
        assert sorted(result.stdout.split()) == sorted(
            ["removed", "removed", "removed", f"{prefix}-n1", f"{prefix}-n2", f"{prefix}-n3"])
        assert namespaces(prefix) == []
        assert root_links(prefix) == []
        assert cleanup(prefix).stdout.startswith("nothing to remove")
    finally:
        emu.stop()


def test_start_up_failure_part_way_tears_down(prefix, tmp_path):
    # n2.pcap cannot be created (a directory is in the way): node 1 and 2 are
    # already up when that fails.
    pcaps = tmp_path / "pcap"
    (pcaps / "n2.pcap").mkdir(parents=True)
    proc = subprocess.run([str(EMU), "--prefix", prefix, "--nodes", "3", "--pcap-dir", str(pcaps)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode != 0
    assert proc.stdout == ""  # no ready line
    assert "n2.pcap" in proc.stderr
    assert namespaces(prefix) == []
    assert root_links(prefix) == []


def test_refuses_to_start_over_existing_namespaces(prefix, tmp_path):
    subprocess.run(["ip", "netns", "add", f"{prefix}-n2"], check=True)
    proc = subprocess.run([str(EMU), "--prefix", prefix, "--nodes", "2"], capture_output=True, text=True, timeout=60)
    assert proc.returncode != 0
    assert "--cleanup" in proc.stderr
    assert namespaces(prefix) == [f"{prefix}-n2"], "the existing namespace must be left alone"


def test_bad_eel_line_stops_start_up_naming_file_line_and_field(prefix, tmp_path):
    eel = tmp_path / "bad.eel"
    eel.write_text("# ok\n0 nem:1 commeffect nem:2,0,0,0,0,0,0\n5 nem:1 commeffect nem:2,0,0,150,0,0,0\n")
    proc = subprocess.run([str(EMU), "--prefix", prefix, "--nodes", "2", "--eel", str(eel)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert f"{eel}:3: field 'loss'" in proc.stderr
    assert namespaces(prefix) == []
