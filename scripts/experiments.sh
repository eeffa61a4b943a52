#!/usr/bin/env bash
# Runs every emulated experiment (the paper's Tables 1-3 with dissemd and NRL
# NORM on the same links, Tables 1-2 with OpenPGM and JGroups too; NORM
# through dissem-norm-gateway; the multi-hop, partition and late-join ones; the
# seed-000 message-replacement ones with dissemd and TCP; seed 004's tracks
# over HF (75 to 2400 bit/s, simplex) and satcom with dissemd and NORM; seed
# 003's updates across random disconnections and seed 002's sensor stream,
# each with dissemd and TCP; radio silence, EMCON, with dissemd; a gateway
# between a MANET and an HF net, two-nets, with dissemd) and writes
# the Markdown + PNG report. Needs root
# (network namespaces, TAPs).
#
#   scripts/experiments.sh quick                 # a few cells, one seed (minutes)
#   scripts/experiments.sh full                  # every cell, 3 seeds; report into docs/results
#
# The runs are bound by the emulated links (75 bit/s to 10 Mbit/s), not by
# the CPU: a 2-core machine carries dozens at once. The seed-004 HF cells
# last 680 s each (10 minutes of offered load), so all 12 of a scenario run
# at once; the full profile then takes about as long as its longest
# campaign (~15 minutes for the seed-004 HF and seed-003 ones). So every campaign runs at
# the same time, each on its own range of subnets, with the number of
# parallel runs given below (--jobs J caps each of them at J). Options:
# --out DIR (results, default emulation/out/<profile>), --report DIR (default
# docs/results for full, <out>/report otherwise; into docs/results, the README's
# results section is written again from the new pages), --only NAME (repeatable:
# those campaigns alone, their pages merged into the report's others).
# Each run is torn down whatever happens. Per-campaign and total wall times go
# to <out>/runtime.txt; each campaign's progress to <out>/<name>.log.
set -euo pipefail
cd "$(dirname "$0")/.."

profile=${1:-}
[[ $profile == quick || $profile == full ]] || {
  echo "usage: $0 quick|full [--jobs J] [--out DIR] [--report DIR] [--only NAME]..." >&2; exit 2; }
shift
cap=0
out=""
report=""
only=()
while (($#)); do
  case $1 in
    --jobs) cap=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --report) report=$2; shift 2 ;;
    --only) only+=("$2"); shift 2 ;;
    *) echo "experiments: unknown option $1" >&2; exit 2 ;;
  esac
done
out=${out:-emulation/out/$profile}
if [[ -z $report ]]; then
  if [[ $profile == full ]]; then report=docs/results; else report=$out/report; fi
fi
if [[ $(id -u) -ne 0 ]]; then
  echo "experiments: needs root (network namespaces and TAP devices)" >&2
  exit 1
fi

bash scripts/setup.sh
bash scripts/python-setup.sh >/dev/null  # matplotlib for the report's plots
source scripts/emulation-programs.sh  # emulation_targets, emulation_run_args (shared with demo.sh)
cmake -S . -B "$emulation_build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$emulation_build" -j "$(nproc)" --target "${emulation_targets[@]}"

# scenario, parallel runs, subnet range (distinct, so no two runs share a /24).
campaigns=(
  "tactical        24 10.77.0.0/16"
  "baseline-1to3   16 10.78.0.0/16"
  "baseline-1to1   16 10.79.0.0/16"
  "partition-heal   3 10.80.0.0/16"
  "grid-5x5         3 10.81.0.0/16"
  "line-5           3 10.82.0.0/16"
  "late-join        2 10.83.0.0/16"
  "hostile-air      2 10.84.0.0/16"
  "seed000-replacement 4 10.85.0.0/16"
  "seed000-fluctuating 4 10.86.0.0/16"
  "seed004-hf-2nodes 12 10.87.0.0/16"
  "seed004-hf-3nodes 12 10.88.0.0/16"
  "seed004-satcom     8 10.89.0.0/16"
  "seed003-disconnections 6 10.90.0.0/16"
  "seed002-sensors    2 10.91.0.0/16"
  "rgg-50             1 10.92.0.0/16"
  "norm-gateway       4 10.93.0.0/16"
  "baseline-1to10     4 10.94.0.0/16"
  "baseline-1to20     3 10.95.0.0/16"
  "emcon              3 10.96.0.0/16"
  "two-nets           3 10.97.0.0/16"
)
# Seconds between two campaigns' starts (DISSEM_CAMPAIGN_STAGGER_S).
stagger=${DISSEM_CAMPAIGN_STAGGER_S:-20}
mkdir -p "$out"
runtime="$out/runtime.txt"
echo "profile $profile, $(nproc) CPUs, campaigns concurrently, started $(date -u +%FT%TZ)" >"$runtime"
start=$SECONDS
pids=()
names=()
stop_all() { for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done; wait; exit 143; }
trap stop_all INT TERM
for entry in "${campaigns[@]}"; do
  read -r name jobs subnets <<<"$entry"
  if ((${#only[@]})) && [[ ! " ${only[*]} " == *" $name "* ]]; then continue; fi
  ((cap > 0 && jobs > cap)) && jobs=$cap
  (
    t0=$SECONDS
    rc=0
    emulation/run "emulation/scenarios/$name.toml" --profile "$profile" --jobs "$jobs" --keep-going \
      --out "$out" --subnet-base "$subnets" "${emulation_run_args[@]}" >"$out/$name.log" 2>&1 || rc=$?
    echo "$name: $((SECONDS - t0)) s, $jobs runs at a time, exit $rc" >>"$runtime"
    exit "$rc"
  ) &
  pids+=($!)
  names+=("$name")
  echo "== $name: $profile profile, $jobs at a time (progress in $out/$name.log)"
  # Campaigns start one after another, not all at once: a hundred runs
  # starting their daemons together on a small machine made some miss their
  # start-up deadlines (the "start-up storm" of earlier full campaigns).
  sleep "$stagger"
done
status=0
for i in "${!pids[@]}"; do
  if ! wait "${pids[$i]}"; then
    echo "experiments: ${names[$i]} had runs that were not ok (see $out/${names[$i]}.log)" >&2
    status=1
  fi
done
echo "total: $((SECONDS - start)) s" | tee -a "$runtime"

# With --only the report keeps the other campaigns' pages and merges the new
# ones into its index (and their wall times into its runtime.txt).
merge=()
if ((${#only[@]})); then
  merge=(--merge)
  if [[ -f $report/runtime.txt && $(realpath "$report") != $(realpath "$out") ]]; then
    sed "s/^/re-run alone: /" "$runtime" >>"$report/runtime.txt"
  fi
elif [[ $(realpath -m "$report") != $(realpath "$out") ]]; then
  mkdir -p "$report" && cp "$runtime" "$report/runtime.txt"
fi
emulation/report "$out" --out "$report" "${merge[@]}" --title "Emulated experiments ($profile profile)"
# The forwarding controllers in the simulator (seconds: virtual time), beside the emulated pages.
emulation/report --sim-forwarding "$emulation_build/src/dissem-sim" --sim-forwarding-out "$report/sim-forwarding.md"
echo "report: $report/README.md"
if [[ $report == docs/results ]]; then
  # The README's results section says what the new pages say (scripts/test.sh checks that it does).
  emulation/report --readme README.md --results docs/results || status=1
fi
exit "$status"
