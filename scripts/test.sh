#!/usr/bin/env bash
# Sets up, builds (Debug, ASan + UBSan, warnings as errors) and runs every test,
# runs the network simulations again in a Release build, then every fuzzer
# briefly (scripts/fuzz.sh: clang, libFuzzer, built in the background meanwhile).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh

echo "== layers: every #include runs downwards, core -> wire -> cache -> controllers -> engine -> sim/ipc/net -> daemon/client -> tools"
python3 scripts/check_layers.py

echo "== README: its results section is what emulation/report writes from docs/results (no build needed)"
python3 emulation/report --readme README.md --results docs/results --check

jobs=$(nproc)
cmake -S . -B build/debug -G Ninja -DCMAKE_BUILD_TYPE=Debug -DDISSEM_SANITIZE=ON -DDISSEM_TESTS=ON >/dev/null
cmake --build build/debug -j "$jobs"
# The longest many-seed simulations run in the Release ctest only
# (tests/release_only_simulations.txt says why); a name there that no test
# has any more stops the run, so the list cannot rot silently.
release_only=$(grep -v '^#' tests/release_only_simulations.txt | grep -v '^$' | paste -sd'|')
listed=$(cd build/debug && ctest -N | grep -cE "Test +#[0-9]+: ($release_only)\$") || true
expected=$(grep -v '^#' tests/release_only_simulations.txt | grep -cv '^$')
if [[ $listed -ne $expected ]]; then
  echo "tests/release_only_simulations.txt names $expected tests; ctest knows $listed of them" >&2
  exit 1
fi

# The fuzzers' build (clang, a tree of its own) runs in the background at the
# lowest CPU priority from here on: the tests below leave much of the CPU idle
# while they wait on sockets and emulated links. The fuzzing step waits for it.
fuzz_build_log=build/fuzz-build.log
mkdir -p build
setsid --wait nice -n 19 bash scripts/fuzz.sh --build-only >"$fuzz_build_log" 2>&1 &
fuzz_build_pid=$!
trap 'kill -- -"$fuzz_build_pid" 2>/dev/null || true' EXIT  # setsid: its own process group

(cd build/debug && ctest --output-on-failure -j "$jobs" --timeout 900 -E "^($release_only)\$")

echo "== the network simulations again in Release (the long many-seed ones run only here)"
cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release -DDISSEM_TESTS=ON -DDISSEM_TEST_SUITES=sim >/dev/null
cmake --build build/release -j "$jobs"
(cd build/release && ctest --output-on-failure -j "$jobs" --timeout 900)

# Tests that need root (network namespaces, TAP devices) skip loudly without
# it. As root they can always run, so a skip there means something is broken:
# CI (root) fails instead of skipping.
if [[ $(id -u) -eq 0 || -n "${CI:-}" ]]; then export DISSEM_REQUIRE_ROOT_TESTS=1; fi

echo "== the Debian package: built, installed, used and removed (scripts/packaging/package-test.sh)"
package_rc=0
bash scripts/packaging/package-test.sh build/release || package_rc=$?
if [[ $package_rc -eq 77 && -n ${DISSEM_REQUIRE_ROOT_TESTS:-} ]]; then
  echo "the package test was skipped where root tests are required" >&2
  exit 1
elif [[ $package_rc -ne 0 && $package_rc -ne 77 ]]; then
  exit "$package_rc"
fi

# The Python tests below run on pytest-xdist workers (-n; python-setup.sh
# installs it): they mostly wait on sockets, timers and emulated links at low
# rates, so twice as many workers as cores. On 2 cores, 4 workers took the
# emulation tests from about 16 minutes to 6-8 (3 workers: 9, 2: 11) and each
# Python client run from about 50 s to 40. Each worker has its own daemons,
# ports, sockets, namespaces and temporary directories (tmp_path is per worker).
py_workers=$((2 * jobs))

echo "== Python client against the (sanitised) daemon"
bash scripts/python-setup.sh
DISSEMD="$PWD/build/debug/src/dissemd" python3 -m pytest -q -n "$py_workers" clients/python/tests
echo "== Python client against the Release daemon (faster: what depends on the daemon's speed shows here)"
DISSEMD="$PWD/build/release/src/dissemd" python3 -m pytest -q -n "$py_workers" clients/python/tests
echo "== Python client: mypy --strict (configuration in clients/python/pyproject.toml)"
(cd clients/python && mypy)

echo "== emulation: runner and report (no root), NORM baseline on loopback, then (root) dissem-emu through"
echo "   real TAPs, 3 dissemd at 20 % loss end to end, and the paper experiments' quick profiles with NORM"
export DISSEM_BUILD_DIR=build/debug DISSEM_RELEASE_BUILD_DIR=build/release  # resource caps are measured on Release daemons
export DISSEM_EMU="$PWD/build/debug/emulation/emu/dissem-emu" DISSEM_NORM="$PWD/build/debug/emulation/baselines/norm/dissem-norm"
# The EMANE engine's tests go last: set-up builds EMANE in the background at
# the lowest priority, and the other emulation tests mostly wait on emulated
# links: what CPU they leave idle goes to it and to the fuzzers' build. The
# tests of a module whose module-scoped fixture runs a campaign share one
# worker (emulation/tests/conftest.py); those marked `alone` compare timings
# that other tests beside them would skew, so they run afterwards, one at a time.
python3 -m pytest -q -n "$py_workers" -m "not alone" emulation/tests --ignore=emulation/tests/test_emane_engine.py
python3 -m pytest -q -m alone emulation/tests --ignore=emulation/tests/test_emane_engine.py
if [[ $(id -u) -eq 0 ]]; then
  echo "== EMANE for the --engine emane tests (set-up started its build in the background; this waits for it)"
  bash scripts/setup-emane.sh
fi
python3 -m pytest -q emulation/tests/test_emane_engine.py

echo "== fuzzing: every target (datagrams and the receive path, IPC frames, configuration) for ${FUZZ_SECONDS:-20} s each"
if ! wait "$fuzz_build_pid"; then
  tail -n 40 "$fuzz_build_log"
  echo "the fuzzers' build failed (above: the end of $fuzz_build_log)" >&2
  exit 1
fi
trap - EXIT
bash scripts/fuzz.sh "${FUZZ_SECONDS:-20}"
