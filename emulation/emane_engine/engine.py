"""One EMANE run on this machine, behind dissem-emu's contract.

Start: the control network (control_network.py), the EMANE files
(emane_files.py), one `emane` per node namespace (its NEM's TAP appears
there as emane0), optional captures, then the event service, which plays
the EEL from its start. Then one ready line on stdout, as dissem-emu prints
it. Stop (SIGTERM, SIGINT, SIGHUP, or --duration): EMANE's statistics are
read from every NEM (statistics.py) into --stats-json, then every process
ends and every namespace goes.
"""

from __future__ import annotations

import ipaddress
import json
import os
import signal
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import control_network as net
from . import statistics
from .installation import Emane

from runner import eel, emane_files
from runner.emane_export import share_nodes
from runner.emane_links import LinkOptions, emane_events, receive_buffer_periods
from runner.emane_rfpipe import node_rates

TAP_WAIT_S = 60.0
EVENTS_SETTLE_S = 1.0   # the event service's time-0 events reach every NEM
STOP_WAIT_S = 10.0


class EngineError(Exception):
    pass


@dataclass
class RunOptions:
    prefix: str
    nodes: int
    subnet: ipaddress.IPv4Network
    eel_path: Path | None
    seed: int
    links: LinkOptions
    workdir: Path
    stats_json: Path | None = None
    pcap_dir: Path | None = None
    duration_s: float | None = None
    realtime: bool = True
    log_level: int = 2
    hosts: int = 0   # > 0: EMANE's distributed mode, that many host namespaces sharing the NEMs
    model: str = "commeffect"   # or "rfpipe": a shared medium (runner/emane_rfpipe.py)
    shared_channel_bps: float = 0.0   # the rfpipe model's radios' rate, where no node has its own


@dataclass
class Child:
    name: str
    popen: subprocess.Popen
    log: Path


@dataclass
class EmaneRun:
    opts: RunOptions
    emane: Emane
    children: list[Child] = field(default_factory=list)
    origin_unix: float = 0.0
    started_mono: float = 0.0
    stopped_by: str = ""
    made_network: bool = False   # never delete namespaces another run made
    startup_s: float = 0.0       # from the first namespace to the ready line

    # -- start -------------------------------------------------------------------
    def _spawn(self, name: str, argv: list[str], ns: str | None, log: Path) -> Child:
        full = (["ip", "netns", "exec", ns] if ns else []) + argv
        out = open(log, "wb")
        try:
            p = subprocess.Popen(full, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                                 cwd=self.opts.workdir, env=self.emane.env(), start_new_session=True)
        except OSError as e:
            raise EngineError(f"cannot start {argv[0]}: {e.strerror}") from None
        finally:
            out.close()
        child = Child(name, p, log)
        self.children.append(child)
        return child

    def _check_children(self) -> None:
        for c in self.children:
            if c.popen.poll() is not None:
                tail = c.log.read_text(errors="replace").strip().splitlines()[-5:] if c.log.exists() else []
                raise EngineError(f"{c.name} exited with code {c.popen.returncode}: " + " | ".join(tail))

    def _tap_of(self, node: int) -> tuple[str, str]:
        """Where node's TAP appears first: (namespace, device)."""
        o = self.opts
        if not o.hosts:
            return net.node_namespace(o.prefix, node), emane_files.DEVICE
        host = next(k for k, members in share_nodes(o.nodes, o.hosts).items() if node in members)
        return net.host_namespace(o.prefix, host), emane_files.staging_device(node)

    def _wait_for_taps(self) -> dict[int, dict]:
        deadline = time.monotonic() + TAP_WAIT_S
        found: dict[int, dict] = {}
        while len(found) < self.opts.nodes:
            self._check_children()
            for i in range(1, self.opts.nodes + 1):
                if i not in found:
                    info = net.interface(*self._tap_of(i))
                    if info is not None:
                        found[i] = info
            if time.monotonic() >= deadline:
                missing = sorted(set(range(1, self.opts.nodes + 1)) - set(found))
                raise EngineError(f"no {emane_files.DEVICE} within {TAP_WAIT_S:g} s on node(s) {missing} "
                                  f"(see {self.opts.workdir}/emane-<i>.log)")
            time.sleep(0.1)
        return found

    def start(self) -> dict:
        begun = time.monotonic()
        o = self.opts
        events = eel.read(o.eel_path.read_text(), eel.EMULATOR_CONVENTION) if o.eel_path else []
        hosts = share_nodes(o.nodes, o.hosts) if o.hosts else None
        if o.model == "rfpipe":
            radios = {i: o.links.radio_of(i) for i in range(1, o.nodes + 1)}
            rates = node_rates(events, o.nodes, radios, o.shared_channel_bps)
            pcr = f"file://{self.emane.prefix}/share/emane/xml/models/mac/rfpipe/rfpipepcr.xml"
            platforms = emane_files.write_rfpipe(o.workdir, self.emane.dtd_dir, o.subnet, events, o.nodes, rates,
                                                 o.links.default_disconnected, pcr, hosts, net.CONTROL_DEVICE,
                                                 net.BRIDGE)
        else:
            mapped = emane_events(events, o.links)
            periods = receive_buffer_periods(mapped, o.links)
            platforms = emane_files.write(o.workdir, self.emane.dtd_dir, o.subnet, mapped, periods,
                                          o.links.default_disconnected, hosts, net.CONTROL_DEVICE, net.BRIDGE)
        net.create(o.prefix, o.nodes, o.hosts)
        self.made_network = True
        flags = ["-l", str(o.log_level)] + (["-r"] if o.realtime else [])
        for key, platform in platforms.items():
            ns = net.host_namespace(o.prefix, key) if hosts else net.node_namespace(o.prefix, key)
            what = f"host {key}" if hosts else f"node {key}"
            self._spawn(f"emane ({what})", [self.emane.emane, str(platform), *flags], ns,
                        o.workdir / f"emane-{'host-' if hosts else ''}{key}.log")
        taps = self._wait_for_taps()
        if hosts:
            for i in range(1, o.nodes + 1):
                ns, device = self._tap_of(i)
                net.move_device(ns, device, net.node_namespace(o.prefix, i), emane_files.DEVICE)
        broadcast = str(o.subnet.broadcast_address)
        nodes = []
        for i in range(1, o.nodes + 1):
            ns = net.node_namespace(o.prefix, i)
            address = str(o.subnet.network_address + i)
            net.set_experiment_address(ns, emane_files.DEVICE, address, o.subnet.prefixlen, broadcast)
            nodes.append({"id": i, "namespace": ns, "interface": emane_files.DEVICE, "address": address,
                          "mac": taps[i].get("address", "")})
        if o.pcap_dir is not None:
            o.pcap_dir.mkdir(parents=True, exist_ok=True)
            for i in range(1, o.nodes + 1):
                self._spawn(f"dumpcap (node {i})", ["dumpcap", "-q", "-P", "-i", emane_files.DEVICE,
                                                    "-w", str(o.pcap_dir / f"n{i}.pcap")],
                            net.node_namespace(o.prefix, i), o.workdir / f"dumpcap-{i}.log")
        self.origin_unix = time.time()
        self.started_mono = time.monotonic()
        self._spawn("emaneeventservice", [self.emane.eventservice, str(o.workdir / "eventservice.xml"), *flags],
                    net.control_namespace(o.prefix), o.workdir / "emaneeventservice.log")
        time.sleep(EVENTS_SETTLE_S)
        self._check_children()
        self.startup_s = time.monotonic() - begun
        return {"ready": True, "engine": "emane", "engine_version": self.emane.version, "model": o.model,
                "emane_prefix": str(self.emane.prefix), "prefix": o.prefix, "subnet": str(o.subnet),
                "broadcast": broadcast, "nodes": nodes,
                "hosts": {str(k): v for k, v in hosts.items()} if hosts else None,
                "startup_s": round(self.startup_s, 3)}

    # -- run ---------------------------------------------------------------------
    def wait(self, stop: threading.Event) -> None:
        while not stop.is_set():
            if self.opts.duration_s is not None and time.monotonic() - self.started_mono >= self.opts.duration_s:
                self.stopped_by = "duration"
                return
            self._check_children()
            stop.wait(0.2)

    # -- stop --------------------------------------------------------------------
    def _cost(self) -> dict:
        """What EMANE's own processes (emane, the event service) used: CPU
        seconds and peak resident memory, read before they are stopped."""
        tick = os.sysconf("SC_CLK_TCK")
        cpu, peak, count = 0.0, 0, 0
        for c in self.children:
            if not c.name.startswith(("emane", "emaneeventservice")) or c.popen.poll() is not None:
                continue
            try:
                fields = Path(f"/proc/{c.popen.pid}/stat").read_text().rsplit(")", 1)[1].split()
                cpu += (int(fields[11]) + int(fields[12])) / tick
                for line in Path(f"/proc/{c.popen.pid}/status").read_text().splitlines():
                    if line.startswith("VmHWM:"):
                        peak += int(line.split()[1]) * 1024
                count += 1
            except (OSError, IndexError, ValueError):
                continue
        return {"processes": count, "cpu_s": round(cpu, 2), "peak_rss_bytes": peak,
                "startup_s": round(self.startup_s, 3)}

    def stop(self) -> dict | None:
        stats = None
        cost = self._cost() if self.origin_unix else None
        if self.origin_unix:
            try:
                o = self.opts
                where = ([net.host_namespace(o.prefix, k) for k in range(1, o.hosts + 1)] if o.hosts else
                         [net.node_namespace(o.prefix, i) for i in range(1, o.nodes + 1)])
                stats = statistics.collect(self.emane, where, o.nodes)
            except Exception as e:  # the run's figures are worth a warning, not a crash during teardown
                sys.stderr.write(f"dissem-emane: reading EMANE's statistics failed: {e}\n")
        for c in reversed(self.children):
            if c.popen.poll() is None:
                try:
                    os.killpg(c.popen.pid, signal.SIGTERM)
                except OSError:
                    pass
        deadline = time.monotonic() + STOP_WAIT_S
        for c in self.children:
            try:
                c.popen.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
            try:
                os.killpg(c.popen.pid, signal.SIGKILL)
            except OSError:
                pass
        if self.made_network:
            net.delete(self.opts.prefix)
        if stats is not None:
            stats["run"] = {"duration_s": round(time.monotonic() - self.started_mono, 6),
                            "origin_unix_s": round(self.origin_unix, 6), "stopped_by": self.stopped_by,
                            "engine": "emane", "engine_version": self.emane.version, "engine_cost": cost}
            stats["config"] = {"prefix": self.opts.prefix, "nodes": self.opts.nodes, "subnet": str(self.opts.subnet),
                               "seed": self.opts.seed, "radio_bps": self.opts.links.radio_bps,
                               "queue_packets": self.opts.links.queue_packets,
                               "default_connected": not self.opts.links.default_disconnected,
                               "model": self.opts.model, "ipv6": False, "hosts": self.opts.hosts}
            if self.opts.stats_json is not None:
                self.opts.stats_json.write_text(json.dumps(stats, indent=1) + "\n")
        return stats
