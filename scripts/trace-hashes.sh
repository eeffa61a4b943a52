#!/usr/bin/env bash
# Prints one line per simulated run, "case trace-hash", for a dissem-sim
# binary: every built-in scenario, lossy and shared-channel baselines with and
# without coding, small messages (window coding and bundling), rate
# adaptation on. The trace hash covers every datagram every node sent, with
# its time (Simulation::trace_hash), so two binaries whose engines behave the
# same print the same lines. For a change meant to keep behaviour identical:
#
#   git stash; cmake --build B --target dissem-sim; cp B/src/dissem-sim /tmp/before; git stash pop
#   cmake --build B --target dissem-sim
#   diff <(scripts/trace-hashes.sh /tmp/before) <(scripts/trace-hashes.sh B/src/dissem-sim)
#
# The runs are in virtual time and CPU-bound: a few seconds in all with a
# Release build.
set -euo pipefail
sim=${1:?usage: $0 PATH/TO/dissem-sim}
[[ -x $sim ]] || { echo "trace-hashes: $sim is not an executable" >&2; exit 2; }

run() {
  local name=$1
  shift
  local hash
  hash=$("$sim" "$@" --json | python3 -c 'import json, sys; print(json.load(sys.stdin)["trace_hash"])') || {
    echo "trace-hashes: $name failed: $sim $*" >&2
    exit 1
  }
  echo "$name $hash"
}

run baseline baseline
run baseline-70 baseline --reliability 70 --seed 2
run baseline-70-uncoded baseline --reliability 70 --seed 3 --engine coding=false
run baseline-70-shared baseline --reliability 70 --shared-channel --seed 4
run baseline-90-small baseline --reliability 90 --message-size 1024 --bytes 204800 --seed 5
run baseline-90-small-unwindowed baseline --reliability 90 --message-size 1024 --bytes 204800 --seed 6 \
  --engine window_messages=0
run baseline-80-adaptive baseline --reliability 80 --seed 7 --engine rate_adaptation=true
run tactical tactical
run line line
run grid grid
run partition partition
run late-join late-join
run geometric geometric
