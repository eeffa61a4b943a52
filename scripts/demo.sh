#!/usr/bin/env bash
# The main job: set up, build (Release), then
#  1. three dissemd daemons on this machine (loopback multicast; no root needed
#     once built) disseminate a 1 MB file from one publisher to two
#     subscribers, with progress lines, a byte-for-byte check and the stats;
#  2. the simulator runs the paper's 1-to-3 cell at 256 kbit/s, 70 % reliability;
#  3. as root: the same experiment on the emulator (network namespaces, TAP
#     devices, user-space link effects), the quick profile of
#     emulation/scenarios/baseline-1to3.toml: every system it names (dissemd,
#     dissemd with ARQ repairs, NRL NORM, OpenPGM, JGroups) on identical links
#     at 1 Mbit/s, 100 % and 70 % reliability, reported side by side.
# It ends with a summary: what ran, where the emulator's results and report
# are (demo-out/, kept and git-ignored; the next demo replaces it) and ours
# against NORM on the emulated cells, read from the report's summary.json.
# Exit 0 when everything that ran went well (without root, parts 1 and 2).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
source scripts/emulation-programs.sh  # emulation_build, emulation_targets, emulation_run_args (as experiments.sh)
root=0
[[ $(id -u) -eq 0 ]] && root=1
if ((root)); then targets=(dissem-sim "${emulation_targets[@]}"); else targets=(dissemd dissem dissem-sim); fi
cmake -S . -B "$emulation_build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$emulation_build" -j "$(nproc)" --target "${targets[@]}"
bin=$emulation_build/src
out=demo-out

dir=$(mktemp -d /tmp/dissem-demo-XXXXXX)
pids=()
sub_pids=()
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
for p in "${sub_pids[@]}"; do wait "$p" || true; done  # a subscriber that failed shows below
identical=0
for n in 1 2; do
  if cmp -s "$dir/file.bin" "$dir/out$n"/*; then
    echo "subscriber $n: received 1048576 bytes, byte-identical"
    identical=$((identical + 1))
  else
    echo "subscriber $n: no byte-identical copy of the file" >&2
  fi
done
echo "== stats of subscriber 1"
"$bin/dissem" --socket "$dir/node1.sock" stats
echo "== peers seen by the publisher"
"$bin/dissem" --socket "$dir/node0.sock" peers

echo
echo "== simulator: the paper's 1-to-3 cell, 819,200 bytes at 256 kbit/s, 70 % reliability"
"$bin/dissem-sim" baseline --receivers 3 --capacity-kbps 256 --reliability 70 "$@"

emulated=skipped
if ((root)); then
  echo
  echo "== emulator: 1 sender -> 3 receivers, 819,200 bytes at 1 Mbit/s, 100 % and 70 % reliability, every system"
  echo "   of emulation/scenarios/baseline-1to3.toml on the same links (results and report in $out/)"
  rm -rf "$out"
  emulated=ok
  emulation/run emulation/scenarios/baseline-1to3.toml --profile quick --jobs 2 --keep-going --out "$out/emulation" \
    "${emulation_run_args[@]}" || emulated=failed
  if compgen -G "$out/emulation/baseline-1to3/*/*/*/result.json" >/dev/null; then
    bash scripts/python-setup.sh >/dev/null  # matplotlib for the report's plots
    emulation/report "$out/emulation" --out "$out/report" --title "Demo: emulated baseline-1to3, quick profile" \
      >/dev/null || emulated=failed
  else
    emulated=failed
  fi
fi

echo
echo "== summary"
echo "loopback:  3 dissemd on loopback multicast, a 1 MB file to 2 subscribers: $identical of 2 copies byte-identical"
echo "simulator: dissem-sim baseline, the paper's 1-to-3 cell at 256 kbit/s and 70 % reliability (printed above)"
if [[ $emulated == skipped ]]; then
  echo "emulator:  not run: it needs root (network namespaces, TAP devices); as root: sudo bash scripts/demo.sh"
else
  runs=$(sed -n 's/^- \[baseline-1to3\](baseline-1to3\.md): //p' "$out/report/README.md" 2>/dev/null || true)
  note=""
  [[ $emulated == failed ]] && note=" (not every run was ok: see above)"
  echo "emulator:  baseline-1to3, quick profile: ${runs:-no report}$note"
  echo "           results (a result.json and logs per run): $PWD/$out/emulation/baseline-1to3/"
  if [[ -f $out/report/baseline-1to3.md ]]; then
    echo "           report and plots: $PWD/$out/report/baseline-1to3.md"
    emulation/report --ours-vs-norm --results "$out/report" | sed 's/^/           /' || emulated=failed
  fi
fi
if ((identical < 2)) || [[ $emulated == failed ]]; then
  echo "demo: not everything went well (see above)" >&2
  exit 1
fi
