#!/usr/bin/env python3
"""Publish a payload through one dissemd and receive it through another.

    python3 examples/publish_subscribe.py --sub /tmp/b.sock --pub /tmp/a.sock --size 1000000
    python3 examples/publish_subscribe.py --sub /tmp/a.sock --file report.pdf   # one daemon

Subscribes on the --sub daemon, publishes on the --pub daemon (default: the
same one), waits for the delivery, checks it is byte-identical and prints
both daemons' traffic figures. The asyncio version is
aio_publish_subscribe.py.
"""

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "src"))

from dissem_client import Client, DaemonConnectionError, RequestError  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sub", required=True, help="socket of the subscribing daemon")
    ap.add_argument("--pub", help="socket of the publishing daemon (default: --sub)")
    ap.add_argument("--group", default="example")
    src = ap.add_mutually_exclusive_group()
    src.add_argument("--file", help="publish this file's contents")
    src.add_argument("--size", type=int, default=100_000, help="publish this many random bytes")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds to wait for the delivery")
    args = ap.parse_args()

    if args.file:
        with open(args.file, "rb") as f:
            payload = f.read()
    else:
        payload = os.urandom(args.size)
    try:
        with Client(args.sub) as sub, Client(args.pub or args.sub) as pub:
            sub_id = sub.subscribe(args.group, reliable=True)
            start = time.monotonic()
            mid = pub.publish(args.group, payload, tag=os.path.basename(args.file or "random"))
            print(f"published {len(payload)} bytes as {mid.group}/{mid.publisher}/{mid.seq} "
                  f"(durable after {time.monotonic() - start:.3f} s)")
            # Ends (for-else) if nothing arrives for --timeout seconds.
            for d in sub.deliveries(sub_id, timeout=args.timeout):
                if (d.publisher, d.seq) == (mid.publisher, mid.seq):
                    break
            else:
                print(f"no delivery within {args.timeout} s", file=sys.stderr)
                return 1
            took = time.monotonic() - start
            same = d.payload == payload
            print(f"delivered {len(d.payload)} bytes in {took:.3f} s "
                  f"({len(d.payload) / max(took, 1e-9) / 1e6:.1f} MB/s), byte-identical: {same}")
            for name, c in (("publisher", pub), ("subscriber", sub)):
                s = c.stats()
                print(f"{name}: sent data {s.sent.data.bytes} B / {s.sent.data.datagrams} dgrams, "
                      f"received data {s.received.data.bytes} B, repairs sent {s.sent.repair.datagrams}, "
                      f"MFRs sent {s.mfrs_sent}, cache {s.cache_messages} msgs / {s.cache_bytes} B")
            for p in sub.peers():
                print(f"peer {p.node_id}: heard {p.last_heard_ms_ago} ms ago, loss {p.estimated_loss:.1%}, "
                      f"srtt {p.srtt_ms:.2f} ms")
            return 0 if same else 1
    except (DaemonConnectionError, RequestError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
