#!/usr/bin/env python3
"""Loopback throughput: two dissemd against NRL NORM (libnorm) in one run.

Both move the same messages (COUNT x SIZE, 1,400-byte segments) from one
sender to one receiver over loopback multicast on this machine. dissem is
measured by tests/bench_daemons (cache on, SQLite WAL file). NORM is the
project's libnorm baseline tool (emulation/baselines/norm): NORM_OBJECT_DATA,
reactive repairs only, a receive buffer of 64 MiB. NORM has no congestion
control on here and paces at a fixed rate; "unthrottled" at 100 Gbit/s it
overruns its own receiver and spends the run repairing, so the script tries a
ladder of rates and reports every one and the best. Prints figures only.

Usage: bench_loopback.py BUILD_DIR [--messages 50] [--message-mb 8]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

NORM_RATES_BPS = [1e8, 2e8, 4e8, 8e8, 1.6e9, 1e11]


def run_dissem(build, messages, message_mb, extra):
    total = messages * message_mb
    out = subprocess.run([os.path.join(build, "tests", "bench_daemons"), str(total), str(message_mb), "1400",
                          "6000000000", *extra], capture_output=True, text=True, timeout=600)
    text = out.stdout + out.stderr
    m = re.search(r": ([0-9.]+) MB/s, ([0-9.]+) CPU-s per MB", text)
    if m is None:
        print(text, file=sys.stderr)
        return None, None
    return float(m.group(1)), float(m.group(2))


def run_norm(build, rate, messages, message_bytes, port):
    tool = os.path.join(build, "emulation", "baselines", "norm", "dissem-norm")
    limit = 40
    common = ["--interface", "lo", "--loopback", "--grtt", "0.001", "--port", str(port), "--time-limit", str(limit)]
    before = os.times()
    receiver = subprocess.Popen([tool, "receiver", "--node-id", "2", "--expect", str(messages), "--rx-buffer",
                                 str(64 << 20), "--linger", "0", *common], stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True)
    time.sleep(0.3)
    subprocess.run([tool, "sender", "--node-id", "1", "--rate", str(rate), "--messages",
                             f"{messages}x{message_bytes}", "--linger", "0.5", *common],
                            capture_output=True, text=True, timeout=limit + 30)
    rx_out, _ = receiver.communicate(timeout=limit + 30)
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    lines = [line for line in rx_out.splitlines() if line.startswith("{")]
    if not lines:
        return None
    r = json.loads(lines[-1])
    mb = r["bytes_completed"] / 1e6
    span = r["last_completion_s"] - r["first_rx_s"] if r["objects_completed"] else 0
    return {"rate": rate, "completed": r["objects_completed"], "mb_s": mb / span if span > 0 else 0.0,
            "cpu_per_mb": cpu / mb if mb > 0 else float("nan")}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("build")
    p.add_argument("--messages", type=int, default=50)
    p.add_argument("--message-mb", type=int, default=8)
    args = p.parse_args()
    ours, ours_cpu = run_dissem(args.build, args.messages, args.message_mb, [])
    if ours is None:
        print("dissem: the benchmark failed")
        return 1
    print(f"dissem  two dissemd, {args.messages} x {args.message_mb} MB, 1400 B fragments, cache on (WAL): "
          f"{ours:.1f} MB/s, {ours_cpu * 1000:.1f} ms CPU per MB (both daemons)")
    best = None
    port = 20000 + os.getpid() % 20000
    for rate in NORM_RATES_BPS:
        r = run_norm(args.build, rate, args.messages, args.message_mb << 20, port)
        if r is None:
            print(f"NORM    at {rate / 1e6:8.0f} Mbit/s: no result")
            continue
        print(f"NORM    at {rate / 1e6:8.0f} Mbit/s: {r['completed']}/{args.messages} messages, {r['mb_s']:.1f} MB/s, "
              f"{r['cpu_per_mb'] * 1000:.1f} ms CPU per MB (both processes)")
        if r["completed"] == args.messages and (best is None or r["mb_s"] > best["mb_s"]):
            best = r
    if best is None:
        print("NORM completed no run: no ratio")
        return 0
    print(f"best NORM: {best['mb_s']:.1f} MB/s at {best['rate'] / 1e6:.0f} Mbit/s; "
          f"dissem / NORM = {ours / best['mb_s']:.2f}x (target >= 1.5x); dissem {ours:.1f} MB/s (target >= 150)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
