#!/usr/bin/env bash
# Builds Release and runs the benchmarks. They print figures; they assert nothing about time.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake -S . -B build/release-bench -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/release-bench -j "$(nproc)"
echo "== engine receive path with the SQLite cache"
build/release-bench/tests/bench_receive_path
echo "== loopback, 1400-byte fragments: two dissemd (cache on, WAL) against NRL NORM (libnorm), same messages"
python3 scripts/bench_loopback.py build/release-bench
echo "== two dissemd on loopback multicast, cache on, fragments sized to lo's MTU"
build/release-bench/tests/bench_daemons 400 8
echo "== the same, CPU per delivered MB with coding off, on (no loss: no parity), and on with 10 % proactive parity"
build/release-bench/tests/bench_daemons 400 8 1400 1000000000 coding=false
build/release-bench/tests/bench_daemons 400 8 1400 1000000000 coding=true
build/release-bench/tests/bench_daemons 400 8 1400 1000000000 coding=true redundancy_min=0.1
echo "== block coding: encode and decode throughput per core (k = 64 symbols of 1400 B)"
build/release-bench/tests/bench_block_coding
echo "== a flood of hostile beacons: what a node tracks and the memory it holds (default limits)"
build/release-bench/tests/bench_hearsay_flood 1000
echo "== dissem-sim on the paper's Table 2 cells (1 to 3, 256 kbit/s)"
for r in 100 90 80 70; do
  build/release-bench/src/dissem-sim baseline --receivers 3 --capacity-kbps 256 --reliability "$r" --seed 1
done
