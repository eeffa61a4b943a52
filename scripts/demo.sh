#!/usr/bin/env bash
# The main job: set up, build (Release) and run a small emulated dissemination.
# One publisher sends 800 KB (819,200 bytes) to three subscribers over links of
# 256 kbit/s with 70 % per-packet reliability, in the virtual-time simulator,
# and prints per-receiver delivery, traffic by category and the bound.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release -DDISSEM_TESTS=OFF >/dev/null
cmake --build build/release -j "$(nproc)" --target dissem-sim
build/release/src/dissem-sim baseline --receivers 3 --capacity-kbps 256 --reliability 70 "$@"
