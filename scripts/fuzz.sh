#!/usr/bin/env bash
# Builds the libFuzzer targets (clang; every library instrumented for
# coverage, ASan and UBSan) and runs each for SECONDS (default 60) on a copy
# of its corpus, then prints per target: executions, executions per second
# and edges covered. New inputs found stay in build/fuzz/corpus/<target> for
# the next run. Exits non-zero on the first crash, leak or timeout.
#
#   scripts/fuzz.sh [seconds]
#   scripts/fuzz.sh --build-only   # build the targets and stop (scripts/test.sh
#                                  # builds them in the background while tests run)
set -euo pipefail
cd "$(dirname "$0")/.."
build_only=0
if [[ ${1:-} == --build-only ]]; then build_only=1; shift; fi
seconds=${1:-60}
jobs=$(nproc)
cmake -S . -B build/fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_C_COMPILER=clang -DDISSEM_FUZZ=ON -DDISSEM_TESTS=OFF >/dev/null
targets=(datagram_fuzzer ipc_frame_fuzzer config_fuzzer norm_gateway_fuzzer)
cmake --build build/fuzz -j "$jobs" --target "${targets[@]}"
((build_only)) && exit 0
declare -A seeds=([datagram_fuzzer]=tests/fuzz/corpus [ipc_frame_fuzzer]=tests/fuzz/corpus_ipc
                  [config_fuzzer]=tests/fuzz/corpus_config [norm_gateway_fuzzer]=tests/fuzz/corpus_gateway)
summary=()
for t in "${targets[@]}"; do
  corpus=build/fuzz/corpus/$t
  mkdir -p "$corpus"
  cp -n "${seeds[$t]}"/* "$corpus"/ 2>/dev/null || true
  log=build/fuzz/$t.log
  echo "== $t for $seconds s"
  if ! build/fuzz/tests/fuzz/$t -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=25 -max_len=65536 \
      -print_final_stats=1 -artifact_prefix=build/fuzz/ "$corpus" >"$log" 2>&1; then
    tail -n 40 "$log"
    echo "fuzz: $t failed (log $log, reproducer under build/fuzz/)" >&2
    exit 1
  fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
  edges=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2)
  summary+=("$(printf '%-18s %12s execs %8s execs/s %8s edges' "$t" "$runs" "$rate" "${edges:-?}")")
done
echo "== fuzzing: no crash"
printf '%s\n' "${summary[@]}"
