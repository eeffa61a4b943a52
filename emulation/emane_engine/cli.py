"""dissem-emane: EMANE behind dissem-emu's command line (emulation/emu/README.md).

    dissem-emane --prefix NAME --nodes N [--subnet 10.77.0.0/24] [--eel FILE] [--seed S]
                 [--queue-packets Q] [--radio-bps BPS] [--radio-bps-node I=BPS]...
                 [--default-disconnected] [--pcap-dir DIR] [--stats-json FILE]
                 [--duration SECONDS] [--emane-prefix DIR] [--workdir DIR] [--no-realtime] [--hosts K]
    dissem-emane --cleanup NAME

The runner starts it as it starts dissem-emu (emulation/run --engine emane).
dissem-emu options the comm effect shim cannot express (--shared-channel-bps,
--half-duplex-bps, --turnaround-ms, --max-hold-ms, --gilbert, --gilbert-link,
--overhead-bytes, --rt-priority) are refused by name, exit 2, before
anything is made. Exit codes as dissem-emu's: 0 after a normal run or
cleanup, 1 on a start-up or run-time failure (what was made is removed
first), 2 on a bad command line or EEL file.
"""

from __future__ import annotations

import argparse
import ipaddress
import json
import re
import signal
import sys
import tempfile
import threading
from pathlib import Path

from . import control_network
from .engine import EmaneRun, EngineError, RunOptions
from .installation import EmaneNotFound, find

from runner import eel, emane_links
from runner.emane_links import LinkOptions
from runner.emane_rfpipe import RfpipeUnsupported
from runner.project_version import version_line

REFUSED = {
    "--shared-channel-bps": "a shared channel needs a radio model with a shared medium, not the comm effect shim",
    "--half-duplex-bps": "a half-duplex channel needs a radio model with turns (e.g. TDMA), not the comm effect shim",
    "--turnaround-ms": "belongs to the half-duplex channel",
    "--max-hold-ms": "belongs to the half-duplex channel",
    "--gilbert": "the comm effect shim draws each packet's loss independently: no burst loss",
    "--gilbert-link": "the comm effect shim draws each packet's loss independently: no burst loss",
    "--overhead-bytes": "the comm effect shim charges a frame's own bytes only",
    "--rt-priority": "EMANE's own realtime scheduling is used (--no-realtime turns it off)",
}


class Refused(Exception):
    pass


def _node_rate(text: str) -> tuple[int, float]:
    m = re.fullmatch(r"(\d+)=([0-9.eE+-]+)", text)
    if not m:
        raise argparse.ArgumentTypeError(f"expected I=BPS, got {text!r}")
    return int(m.group(1)), float(m.group(2))


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="dissem-emane", description="EMANE (comm effect shim) behind dissem-emu's "
                                "command line: one emane per node namespace, an event service playing the EEL.")
    p.add_argument("--version", action="version", version=version_line("dissem-emane"))
    p.add_argument("--cleanup", metavar="NAME", help="remove namespaces left by a run with this prefix")
    p.add_argument("--prefix")
    p.add_argument("--nodes", type=int)
    p.add_argument("--subnet", default="10.77.0.0/24")
    p.add_argument("--eel", type=Path)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--queue-packets", type=int)
    p.add_argument("--radio-bps", type=float, default=0.0)
    p.add_argument("--radio-bps-node", type=_node_rate, action="append", default=[])
    p.add_argument("--default-disconnected", action="store_true")
    p.add_argument("--pcap-dir", type=Path)
    p.add_argument("--stats-json", type=Path)
    p.add_argument("--duration", type=float)
    p.add_argument("--emane-prefix", help="EMANE installation prefix (default: $DISSEM_EMANE_PREFIX, "
                                          "/opt/dissem-emane, then emane on PATH)")
    p.add_argument("--workdir", type=Path, help="where the EMANE files and logs go (default: beside --stats-json)")
    p.add_argument("--model", choices=("commeffect", "rfpipe"), default="commeffect",
                   help="commeffect: the paper's per-link model (MANE semantics); rfpipe: every node a radio on "
                        "one frequency, collisions from EMANE's PHY")
    p.add_argument("--shared-channel-bps", type=float, default=0.0, help=argparse.SUPPRESS)
    p.add_argument("--hosts", type=int, default=0, help="EMANE's distributed mode: K network namespaces act as "
                                                         "hosts, each running one emane with its share of the NEMs")
    p.add_argument("--no-realtime", action="store_true", help="run emane without its realtime scheduling (-r)")
    p.add_argument("--log-level", type=int, default=2, choices=range(0, 5))
    return p


# Options whose value 0 means "off" (the runner passes them so): those pass.
OFF_AT_ZERO = {"--shared-channel-bps", "--half-duplex-bps"}
# What the RF Pipe model (a shared medium) takes that the comm effect shim does not.
RFPIPE_TAKES = {"--shared-channel-bps"}


def _refuse_unsupported(argv: list[str]) -> list[str]:
    """argv without the options that are off; refuses one that is on."""
    rfpipe = "rfpipe" in argv or "--model=rfpipe" in argv
    kept: list[str] = []
    i = 0
    while i < len(argv):
        name, eq, value = argv[i].partition("=")
        if name not in REFUSED or (rfpipe and name in RFPIPE_TAKES):
            kept.append(argv[i])
            i += 1
            continue
        if not eq:
            value = argv[i + 1] if i + 1 < len(argv) else ""
            i += 1
        i += 1
        try:
            off = name in OFF_AT_ZERO and float(value) == 0
        except ValueError:
            off = False
        if not off:
            raise Refused(f"{name}: not supported on EMANE's comm effect shim ({REFUSED[name]})")
    return kept


def _options(args) -> RunOptions:
    if not args.prefix or not re.fullmatch(r"[a-z0-9-]{1,10}", args.prefix):
        raise Refused("--prefix: 1-10 characters of [a-z0-9-] required")
    if args.nodes is None or not 1 <= args.nodes <= 253:
        raise Refused("--nodes: 1..253 required")
    try:
        subnet = ipaddress.IPv4Network(args.subnet)
    except ValueError as e:
        raise Refused(f"--subnet: {e}") from None
    if subnet.num_addresses - 2 < args.nodes:
        raise Refused(f"--subnet {subnet} does not hold {args.nodes} nodes")
    if not 0 <= args.hosts <= args.nodes:
        raise Refused(f"--hosts: 0..{args.nodes} (0: one emane per node)")
    if args.eel is not None and not args.eel.is_file():
        raise Refused(f"--eel {args.eel}: no such file")
    queue = emane_links.DEFAULT_QUEUE_PACKETS if args.queue_packets is None else args.queue_packets
    if queue < 0:
        raise Refused("--queue-packets: must be >= 0")
    links = LinkOptions(nodes=args.nodes, queue_packets=queue, radio_bps=args.radio_bps,
                        radio_bps_node=dict(args.radio_bps_node), default_disconnected=args.default_disconnected)
    workdir = args.workdir or ((args.stats_json.parent if args.stats_json else Path(tempfile.mkdtemp())) / "emane")
    return RunOptions(prefix=args.prefix, nodes=args.nodes, subnet=subnet, eel_path=args.eel, seed=args.seed,
                      links=links, workdir=workdir.resolve(), stats_json=args.stats_json, pcap_dir=args.pcap_dir,
                      duration_s=args.duration, realtime=not args.no_realtime, log_level=args.log_level,
                      hosts=args.hosts, model=args.model, shared_channel_bps=args.shared_channel_bps)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        args = parser().parse_args(_refuse_unsupported(argv))
        if args.cleanup:
            removed = control_network.delete(args.cleanup)
            print(json.dumps({"cleanup": args.cleanup, "removed": removed}))
            return 0
        opts = _options(args)
        # The EEL is read before anything is made: a bad file makes nothing.
        if opts.eel_path is not None:
            eel.read(opts.eel_path.read_text(), eel.EMULATOR_CONVENTION)
        emane = find(args.emane_prefix)
    except (Refused, EmaneNotFound, ValueError) as e:
        sys.stderr.write(f"dissem-emane: {e}\n")
        return 2

    stop = threading.Event()
    run = EmaneRun(opts, emane)

    def on_signal(signum, _frame):
        run.stopped_by = signal.Signals(signum).name
        stop.set()

    for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(s, on_signal)
    code = 0
    try:
        ready = run.start()
        print(json.dumps(ready), flush=True)
        run.wait(stop)
    except (EngineError, control_network.NetworkError) as e:
        sys.stderr.write(f"dissem-emane: {e}\n")
        code = 1
    except RfpipeUnsupported as e:
        sys.stderr.write(f"dissem-emane: {e}\n")
        code = 2
    finally:
        run.stop()
    return code
