#!/usr/bin/env python3
"""Small UDP sender and receiver for the emulator's TAP tests.

Run inside a node's namespace (``ip netns exec NS python3 udp_probe.py ...``).
Each datagram carries its sequence number and the sender's CLOCK_REALTIME
time, taken just before the send; the receiver takes the kernel's receive
time of the datagram (SO_TIMESTAMPNS, the same clock, which the namespaces
share), so one-way delay is measured on the path, not including how long a
busy host took to schedule the receiving process.

  send  --dest ADDR --port P --count N --rate PPS --size BYTES
  recv  --port P --seconds S [--idle S] --out FILE.json

The receiver prints "ready" once bound, and writes every datagram it got as
[seq, sent_ns, received_ns, source_address] rows (the source tells a peer's
datagrams from the node's own broadcasts, which the kernel loops back). Both loops are bounded in count and time.
"""

import argparse
import json
import socket
import struct
import sys
import time

HEADER = struct.Struct("!IQ")  # sequence number, sender's monotonic ns


def send(args: argparse.Namespace) -> None:
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_BINDTODEVICE, args.interface.encode())
    padding = b"\0" * max(0, args.size - HEADER.size)
    interval = 1.0 / args.rate
    start = time.monotonic()
    deadline = start + args.count * interval + 30  # a hard stop whatever happens
    for seq in range(args.count):
        # Paced against the schedule, not the previous send, so rates hold on average.
        wait = start + seq * interval - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        if time.monotonic() > deadline:
            break
        payload = HEADER.pack(seq, time.time_ns()) + padding
        try:
            sock.sendto(payload, (args.dest, args.port))
        except OSError:
            pass  # e.g. ENOBUFS or an unanswered ARP: counted as not received
    sock.close()


SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)
TIMESPEC = struct.Struct("@qq")


def kernel_time_ns(ancillary) -> int:
    """The kernel's receive time from SO_TIMESTAMPNS ancillary data (now, if absent)."""
    for level, kind, data in ancillary:
        if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS and len(data) >= TIMESPEC.size:
            sec, nsec = TIMESPEC.unpack_from(data)
            return sec * 1_000_000_000 + nsec
    return time.time_ns()


def receive(args: argparse.Namespace) -> None:
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    # SO_RCVBUFFORCE (33 on Linux; Python does not name it): root may exceed rmem_max.
    sock.setsockopt(socket.SOL_SOCKET, getattr(socket, "SO_RCVBUFFORCE", 33), 32 * 1024 * 1024)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_BINDTODEVICE, args.interface.encode())
    # SO_TIMESTAMPNS (35 on Linux where Python does not name it): the kernel's
    # CLOCK_REALTIME receive time of each datagram, as ancillary data.
    sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
    sock.bind(("", args.port))
    print("ready", flush=True)
    rows = []
    end = time.monotonic() + args.seconds
    last = None
    while True:
        now = time.monotonic()
        if now >= end or (last is not None and now - last >= args.idle):
            break
        sock.settimeout(min(end - now, args.idle))
        try:
            data, ancillary, _, source = sock.recvmsg(65536, socket.CMSG_SPACE(TIMESPEC.size))
        except socket.timeout:
            continue
        received = kernel_time_ns(ancillary)
        last = time.monotonic()
        if len(data) >= HEADER.size:
            seq, sent = HEADER.unpack_from(data)
            rows.append([seq, sent, received, source[0]])
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(rows, f)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="mode", required=True)
    s = sub.add_parser("send")
    s.add_argument("--dest", required=True)
    s.add_argument("--port", type=int, required=True)
    s.add_argument("--count", type=int, required=True)
    s.add_argument("--rate", type=float, required=True)
    s.add_argument("--size", type=int, default=64)
    s.add_argument("--interface", default="emu0")
    r = sub.add_parser("recv")
    r.add_argument("--port", type=int, required=True)
    r.add_argument("--seconds", type=float, required=True)
    r.add_argument("--idle", type=float, default=1.0, help="stop after this long without a datagram (once one came)")
    r.add_argument("--out", required=True)
    r.add_argument("--interface", default="emu0")
    args = parser.parse_args()
    if args.mode == "send":
        send(args)
    else:
        receive(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
