#!/usr/bin/env bash
# Do our emulator and EMANE agree? Runs baseline-1to3's `agreement` profile
# (256 and 1024 kbit/s; 100, 90 and 70 % reliability; 3 seeds) with dissemd
# and NORM on dissem-emu and on EMANE's comm effect shim, seed by seed in
# turn so that both engines share the machine's conditions, then writes the
# table (times, bytes, ours/NORM per cell and engine) into docs/results/emane.md.
# Needs root and EMANE (scripts/setup-emane.sh).
#
#   scripts/engine-agreement.sh [--out DIR] [--report FILE] [--jobs J]
set -euo pipefail
cd "$(dirname "$0")/.."

out=emulation/out/agreement
report=docs/results/emane.md
jobs=2
while (($#)); do
  case $1 in
    --out) out=$2; shift 2 ;;
    --report) report=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    *) echo "engine-agreement: unknown option $1" >&2; exit 2 ;;
  esac
done
if [[ $(id -u) -ne 0 ]]; then
  echo "engine-agreement: needs root (network namespaces and TAP devices)" >&2
  exit 1
fi

bash scripts/setup.sh
source scripts/emulation-programs.sh  # emulation_build, emulation_targets, emulation_run_args
cmake -S . -B "$emulation_build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$emulation_build" -j "$(nproc)" --target "${emulation_targets[@]}"

# The same programs on both engines; EMANE's runs take its engine program, not --emu.
bin_dirs=()
for ((i = 0; i < ${#emulation_run_args[@]}; i++)); do
  if [[ ${emulation_run_args[i]} == --bin-dir ]]; then bin_dirs+=(--bin-dir "${emulation_run_args[i + 1]}"); fi
done
start=$(date +%s)
for seed in 1 2 3; do
  for engine in dissem-emu emane; do
    echo "== seed $seed on $engine"
    extra=("${bin_dirs[@]}")
    [[ $engine == dissem-emu ]] && extra=("${emulation_run_args[@]}")
    python3 emulation/run emulation/scenarios/baseline-1to3.toml --profile agreement --systems dissem,norm \
      --seeds "$seed" --engine "$engine" --jobs "$jobs" --keep-going --out "$out/$engine" \
      --subnet-base 10.80.0.0/16 "${extra[@]}" 2>&1 | tail -n 2
  done
done
echo "engine-agreement: campaigns took $(( $(date +%s) - start )) s"
python3 emulation/report --agreement "$out/dissem-emu" "$out/emane" --agreement-out "$report"
