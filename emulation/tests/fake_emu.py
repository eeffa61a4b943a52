#!/usr/bin/env python3
"""A stand-in for dissem-emu with the same CLI and ready-line contract and
no root: no namespaces, no devices. It checks its arguments and the EEL
file, prints the ready line, waits for SIGTERM/SIGINT (or --duration), then
writes --stats-json and exits 0.

Every invocation appends one JSON line to $FAKE_EMU_LOG (when set) so tests
can see what the runner asked for: {"event": "start"|"ready"|"stopped"|
"cleanup", "prefix": ..., "pid": ..., "argv": [...]}.

$FAKE_EMU_FAIL=1 makes it exit 3 before the ready line;
$FAKE_EMU_READY_DELAY delays the ready line (seconds).
"""

import argparse
import ipaddress
import json
import os
import signal
import sys
import time


def log(event, **fields):
    path = os.environ.get("FAKE_EMU_LOG")
    if path:
        with open(path, "a") as f:
            f.write(json.dumps({"event": event, "pid": os.getpid(), **fields}) + "\n")


def parse_eel(path, n):
    links = 0
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fields = line.split()
            if len(fields) < 4 or fields[2] != "commeffect" or not fields[1].startswith("nem:"):
                sys.exit(f"fake-emu: {path}:{lineno}: bad EEL line")
            for entry in fields[3:]:
                parts = entry.split(",")
                if len(parts) != 7 or int(parts[0][4:]) > n or int(fields[1][4:]) > n:
                    sys.exit(f"fake-emu: {path}:{lineno}: bad commeffect entry {entry}")
                links += 1
    return links


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--cleanup")
    p.add_argument("--prefix")
    p.add_argument("--nodes", type=int)
    p.add_argument("--subnet", default="10.77.0.0/24")
    p.add_argument("--eel")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--queue-packets", type=int)
    p.add_argument("--radio-bps", type=float)
    p.add_argument("--radio-bps-node", action="append", default=[])
    p.add_argument("--shared-channel-bps", type=float)
    p.add_argument("--gilbert")
    p.add_argument("--gilbert-link", action="append", default=[])
    p.add_argument("--half-duplex-bps", type=float)
    p.add_argument("--turnaround-ms", type=float)
    p.add_argument("--max-hold-ms", type=float)
    p.add_argument("--default-disconnected", action="store_true")
    p.add_argument("--pcap-dir")
    p.add_argument("--stats-json")
    p.add_argument("--duration", type=float)
    p.add_argument("--interface", default="emu0")
    p.add_argument("--join", action="append", default=[])
    args = p.parse_args()

    if args.cleanup:
        log("cleanup", prefix=args.cleanup)
        return 0
    if not args.prefix or not args.nodes:
        p.error("--prefix and --nodes are required")
    log("start", prefix=args.prefix, argv=sys.argv[1:], dissem_sim=os.environ.get("DISSEM_SIM"))
    if os.environ.get("FAKE_EMU_FAIL"):
        print("fake-emu: failing on purpose", file=sys.stderr)
        return 3
    links = parse_eel(args.eel, args.nodes) if args.eel else 0

    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append("TERM"))
    signal.signal(signal.SIGINT, lambda *_: stop.append("INT"))
    time.sleep(float(os.environ.get("FAKE_EMU_READY_DELAY", "0")))
    subnet = ipaddress.IPv4Network(args.subnet)
    hosts = list(subnet.hosts())
    joined = {int(j.split("=", 1)[0]): j.split("=", 1)[1] for j in args.join}
    nodes = [{"id": i, "namespace": joined.get(i, f"{args.prefix}-n{i}"), "interface": args.interface,
              "address": str(hosts[i - 1]), "mac": f"02:00:00:00:00:{i:02x}"} for i in range(1, args.nodes + 1)]
    print(json.dumps({"ready": True, "prefix": args.prefix, "nodes": nodes}), flush=True)
    log("ready", prefix=args.prefix)
    started = time.monotonic()
    while not stop and (args.duration is None or time.monotonic() - started < args.duration):
        time.sleep(0.02)
    if args.stats_json:
        stats = {"prefix": args.prefix, "seed": args.seed, "duration_s": round(time.monotonic() - started, 3),
                 "eel_entries": links,
                 "nodes": [{"id": i, "tx_packets": 10 * i, "rx_packets": 5 * i} for i in range(1, args.nodes + 1)],
                 "links": [{"from": 1, "to": 2, "dropped": 3}]}
        with open(args.stats_json, "w") as f:
            json.dump(stats, f)
    log("stopped", prefix=args.prefix, signal=stop[0] if stop else None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
