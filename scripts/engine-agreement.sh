#!/usr/bin/env bash
# Do our emulator and EMANE agree, and what does a real shared medium change?
# 1. baseline-1to3's `agreement` profile (256 and 1024 kbit/s; 100, 90 and
#    70 % reliability; 3 seeds) with dissemd and NORM on dissem-emu and on
#    EMANE's comm effect shim, seed by seed in turn so that both engines share
#    the machine's conditions: docs/results/emane.md.
# 2. baseline-1to3's `shared` profile (the same cells on one shared channel)
#    and tactical's `shared50` (its 50 % cells), dissemd and NORM, on
#    dissem-emu and on EMANE's RF Pipe model: docs/results/emane-shared-medium.md.
# 2b. baseline-1to10's `emane` profile (issue 32, section 1: 1 to 10
#    receivers with radios of their own, 256 and 1024 kbit/s, 3 seeds) with
#    dissemd and NORM with and without ACKs, on both engines seed by seed:
#    docs/results/emane-1toN.md.
# 3. rgg-50's quick profile on EMANE, one run at a time: what EMANE's own
#    processes cost (start-up, CPU, memory), at the end of docs/results/emane.md.
# Needs root and EMANE (scripts/setup-emane.sh).
#
#   scripts/engine-agreement.sh [--out DIR] [--report FILE] [--jobs J]
#                               [--only agreement|agreement-lossy|many-receivers|shared|cost]
#                               [--engine dissem-emu|emane] [--no-build]
# --engine runs one engine's half only and reports against the other's runs
# already in DIR (after a change to one engine, the other's runs still stand).
# --no-build takes the programs as they are in the Release build (no set-up, no
# rebuild): for running beside a campaign that uses those same binaries.
set -euo pipefail
cd "$(dirname "$0")/.."

out=emulation/out/agreement
report=docs/results/emane.md
jobs=2
only=""
engines=(dissem-emu emane)
build=1
while (($#)); do
  case $1 in
    --only) only=$2; shift 2 ;;
    --engine)
      [[ $2 == dissem-emu || $2 == emane ]] || { echo "engine-agreement: --engine is dissem-emu or emane, not $2" >&2; exit 2; }
      engines=("$2"); shift 2 ;;
    --out) out=$2; shift 2 ;;
    --report) report=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --no-build) build=0; shift ;;
    *) echo "engine-agreement: unknown option $1" >&2; exit 2 ;;
  esac
done
if [[ $(id -u) -ne 0 ]]; then
  echo "engine-agreement: needs root (network namespaces and TAP devices)" >&2
  exit 1
fi

source scripts/emulation-programs.sh  # emulation_build, emulation_targets, emulation_run_args
if ((build)); then
  bash scripts/setup.sh
  cmake -S . -B "$emulation_build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$emulation_build" -j "$(nproc)" --target "${emulation_targets[@]}"
fi

# The same programs on both engines; EMANE's runs take its engine program, not --emu.
bin_dirs=()
for ((i = 0; i < ${#emulation_run_args[@]}; i++)); do
  if [[ ${emulation_run_args[i]} == --bin-dir ]]; then bin_dirs+=(--bin-dir "${emulation_run_args[i + 1]}"); fi
done
start=$(date +%s)
# The agreement cells on 3 seeds, then the lossiest cells on 6 more (profile agreement-lossy).
[[ -z $only || $only == agreement || $only == agreement-lossy ]] && for seed in 1 2 3 4 5 6 7 8 9; do
  profile=agreement
  ((seed > 3)) && profile=agreement-lossy
  [[ $only == agreement-lossy && $profile == agreement ]] && continue
  for engine in "${engines[@]}"; do
    echo "== $profile, seed $seed on $engine"
    extra=("${bin_dirs[@]}")
    [[ $engine == dissem-emu ]] && extra=("${emulation_run_args[@]}")
    python3 emulation/run emulation/scenarios/baseline-1to3.toml --profile "$profile" --systems dissem,norm \
      --seeds "$seed" --engine "$engine" --jobs "$jobs" --keep-going --out "$out/$engine" \
      --subnet-base 10.80.0.0/16 "${extra[@]}" 2>&1 | tail -n 2 || true  # a run that was not ok is a result: the pages count it
  done
done
echo "engine-agreement: agreement campaigns took $(( $(date +%s) - start )) s"

# Issue 32, section 1: 1 sender to 10 receivers, radios of their own, dissemd and NORM (ACKs and none).
start=$(date +%s)
[[ -z $only || $only == many-receivers ]] && for seed in 1 2 3; do
  for engine in "${engines[@]}"; do
    echo "== baseline-1to10 emane profile, seed $seed on $engine"
    extra=("${bin_dirs[@]}")
    [[ $engine == dissem-emu ]] && extra=("${emulation_run_args[@]}")
    python3 emulation/run emulation/scenarios/baseline-1to10.toml --profile emane --systems dissem,norm,norm-noack \
      --seeds "$seed" --engine "$engine" --jobs 1 --keep-going --out "$out/many/$engine" \
      --subnet-base 10.80.0.0/16 "${extra[@]}" 2>&1 | tail -n 2 || true  # a run that was not ok is a result: the page counts it
  done
done
echo "engine-agreement: many-receivers campaigns took $(( $(date +%s) - start )) s"

start=$(date +%s)
[[ -z $only || $only == shared ]] && for spec in "baseline-1to3 shared dissem,norm" "tactical shared50 dissem,norm-pfec"; do
  read -r scenario profile systems <<<"$spec"
  for engine in "${engines[@]}"; do
    echo "== $scenario $profile on $engine"
    extra=("${bin_dirs[@]}" --engine emane --emane-model rfpipe)
    [[ $engine == dissem-emu ]] && extra=("${emulation_run_args[@]}")
    python3 emulation/run "emulation/scenarios/$scenario.toml" --profile "$profile" --systems "$systems" \
      --jobs "$jobs" --keep-going --out "$out/shared/$engine" --subnet-base 10.80.0.0/16 "${extra[@]}" 2>&1 | tail -n 2 || true  # a run that was not ok is a result: the pages count it
  done
done
echo "engine-agreement: shared-medium campaigns took $(( $(date +%s) - start )) s"

start=$(date +%s)
if [[ (-z $only || $only == cost) && " ${engines[*]} " == *" emane "* ]]; then
  echo "== rgg-50 quick on emane, one run at a time"
  python3 emulation/run emulation/scenarios/rgg-50.toml --profile quick --engine emane --jobs 1 --keep-going \
    --out "$out/cost" --subnet-base 10.80.0.0/16 "${bin_dirs[@]}" 2>&1 | tail -n 2 || true  # a run that was not ok is a result: the pages count it
fi
echo "engine-agreement: the cost runs took $(( $(date +%s) - start )) s"

extra_sections=()
[[ -d $out/cost ]] && extra_sections=(--engine-cost "$out/cost")
# dissem-emu's runs from before the cut-through link (2026-11-28), kept to show what the agreement corrected.
[[ -d $out/dissem-emu.before-fix ]] && extra_sections+=(--agreement-before "$out/dissem-emu.before-fix")
if [[ -d $out/dissem-emu && -d $out/emane ]]; then
  python3 emulation/report --agreement "$out/dissem-emu" "$out/emane" "${extra_sections[@]}" --agreement-out "$report"
fi
if [[ -d $out/many/dissem-emu/baseline-1to10 && -d $out/many/emane/baseline-1to10 ]]; then
  python3 emulation/report --many-receivers-engines "$out/many/dissem-emu/baseline-1to10" \
    "$out/many/emane/baseline-1to10" --many-receivers-engines-out "$(dirname "$report")/emane-1toN.md"
fi
if [[ -d $out/shared/emane/baseline-1to3 && -d $out/shared/emane/tactical ]]; then
  python3 emulation/report --shared-medium "baseline-1to3, one shared channel" "$out/shared/dissem-emu/baseline-1to3" \
    "$out/shared/emane/baseline-1to3" --shared-medium "tactical, 50 % cells" "$out/shared/dissem-emu/tactical" \
    "$out/shared/emane/tactical" --shared-medium-out "$(dirname "$report")/emane-shared-medium.md"
fi
