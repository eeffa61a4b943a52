#!/usr/bin/env python3
"""The asyncio client: publish several messages through one dissemd while
another task receives them through a second daemon.

    python3 examples/aio_publish_subscribe.py --sub /tmp/b.sock --pub /tmp/a.sock --count 20 --size 100000

Subscribes on the --sub daemon, then publishes --count messages on the --pub
daemon (default: the same one) all at once (the requests are pipelined on
one connection), while a reader task takes the deliveries with
``async for``. Checks each arrives byte-identical, prints the subscriber's
traffic figures and its peers, and fails after --timeout seconds without a
delivery.
"""

import argparse
import asyncio
import os
import sys
import time
from typing import Dict, Tuple

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "src"))

from dissem_client import DaemonConnectionError, RequestError, aio  # noqa: E402


async def receive(sub: aio.Client, sub_id: int, count: int, timeout: float) -> Dict[Tuple[int, int], bytes]:
    got: Dict[Tuple[int, int], bytes] = {}
    async for d in sub.deliveries(sub_id, timeout=timeout):  # ends after `timeout` s without one
        got[(d.publisher, d.seq)] = d.payload
        if len(got) == count:
            break
    return got


async def run(args: argparse.Namespace) -> int:
    async with await aio.connect(args.sub) as sub, await aio.connect(args.pub or args.sub) as pub:
        sub_id = await sub.subscribe(args.group, reliable=True)
        reader = asyncio.ensure_future(receive(sub, sub_id, args.count, args.timeout))
        payloads = [os.urandom(args.size) for _ in range(args.count)]
        start = time.monotonic()
        ids = await asyncio.gather(*(pub.publish(args.group, p, tag=f"example-{i}") for i, p in enumerate(payloads)))
        print(f"published {args.count} x {args.size} bytes, all durable after {time.monotonic() - start:.3f} s")
        got = await reader
        took = time.monotonic() - start
        sent = {(m.publisher, m.seq): p for m, p in zip(ids, payloads)}
        same = sum(1 for key, p in sent.items() if got.get(key) == p)
        print(f"received {len(got)} of {args.count} in {took:.3f} s, byte-identical: {same}")
        s, peers = await asyncio.gather(sub.stats(), sub.peers())
        print(f"subscriber: received data {s.received.data.bytes} B, repairs sent {s.sent.repair.datagrams}, "
              f"cache {s.cache_messages} msgs / {s.cache_bytes} B")
        for p in peers:
            print(f"peer {p.node_id}: heard {p.last_heard_ms_ago} ms ago, loss {p.estimated_loss:.1%}")
        if same != args.count:
            print(f"missing or different: {args.count - same} (nothing for {args.timeout} s)", file=sys.stderr)
            return 1
        return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sub", required=True, help="socket of the subscribing daemon")
    ap.add_argument("--pub", help="socket of the publishing daemon (default: --sub)")
    ap.add_argument("--group", default="example-aio")
    ap.add_argument("--count", type=int, default=10, help="messages to publish")
    ap.add_argument("--size", type=int, default=10_000, help="bytes per message")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds to wait for each delivery")
    args = ap.parse_args()
    try:
        return asyncio.run(run(args))
    except (DaemonConnectionError, RequestError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
