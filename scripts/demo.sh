#!/usr/bin/env bash
# The main job: set up, build (Release), then
#  1. three dissemd daemons on this machine (loopback multicast; no root needed
#     once built) disseminate a 1 MB file from one publisher to two
#     subscribers, with progress lines, a byte-for-byte check and the stats;
#  2. the simulator runs the paper's 1-to-3 cell at 256 kbit/s, 70 % reliability;
#  3. as root: the same experiment on the emulator (network namespaces, TAP
#     devices, user-space link effects), dissemd and NRL NORM on identical
#     links at 1 Mbit/s, 100 % and 70 % reliability, reported side by side.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/release -j "$(nproc)" --target dissemd dissem dissem-sim dissem-load dissem-norm dissem-emu
bin=build/release/src

dir=$(mktemp -d /tmp/dissem-demo-XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$dir"
}
trap cleanup EXIT INT TERM

port=$((20000 + RANDOM % 20000))
echo "== starting 3 daemons on loopback multicast 239.255.42.99:$port (link paced at 8 Mbit/s)"
for n in 0 1 2; do
  "$bin/dissemd" --interface lo --port "$port" --cache "$dir/node$n.db" --socket "$dir/node$n.sock" \
    --log-level warn --set engine.link_capacity_bps=8000000 &
  pids+=($!)
done
for n in 0 1 2; do
  for _ in $(seq 100); do [[ -S "$dir/node$n.sock" ]] && break; sleep 0.05; done
done

head -c 1048576 /dev/urandom >"$dir/file.bin"
for n in 1 2; do
  mkdir -p "$dir/out$n"
  "$bin/dissem" --socket "$dir/node$n.sock" subscribe demo --count 1 --timeout-s 60 --out "$dir/out$n" \
    --progress 2> >(sed "s/^/[subscriber $n] /" >&2) &
  sub_pids+=($!)
done
sleep 0.5
echo "== publishing a 1 MB file from node 0"
"$bin/dissem" --socket "$dir/node0.sock" publish demo "$dir/file.bin" --progress
for p in "${sub_pids[@]}"; do wait "$p"; done
for n in 1 2; do
  cmp "$dir/file.bin" "$dir/out$n"/* && echo "subscriber $n: received 1048576 bytes, byte-identical"
done
echo "== stats of subscriber 1"
"$bin/dissem" --socket "$dir/node1.sock" stats
echo "== peers seen by the publisher"
"$bin/dissem" --socket "$dir/node0.sock" peers

echo
echo "== simulator: the paper's 1-to-3 cell, 819,200 bytes at 256 kbit/s, 70 % reliability"
"$bin/dissem-sim" baseline --receivers 3 --capacity-kbps 256 --reliability 70 "$@"

if [[ $(id -u) -ne 0 ]]; then
  echo "== emulated experiment skipped: it needs root (network namespaces, TAP devices)"
  exit 0
fi
echo "== emulator: 1 sender -> 3 receivers, 819,200 bytes at 1 Mbit/s, 100 % and 70 % reliability, dissemd then NORM"
emulation/run emulation/scenarios/baseline-1to3.toml --profile quick --jobs 2 --out "$dir/emulation" \
  --emu build/release/emulation/emu/dissem-emu --bin-dir build/release/src --bin-dir build/release/emulation/baselines/norm
bash scripts/python-setup.sh >/dev/null  # matplotlib for the report's plots
emulation/report "$dir/emulation" --out "$dir/report" >/dev/null
sed -n '/^| rel %/,/^$/p' "$dir/report/baseline-1to3.md"
