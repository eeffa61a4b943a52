#!/usr/bin/env bash
# Installs every Debian package the project needs to build, test and run its demo.
# Idempotent: packages already present are skipped, so a second run costs seconds.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  build-essential cmake ninja-build pkg-config
  protobuf-compiler libprotobuf-dev
  libsqlite3-dev libfmt-dev libgtest-dev libgmock-dev
  libboost-dev libboost-system-dev
  libcli11-dev libtomlplusplus-dev nlohmann-json3-dev
  clang libclang-rt-14-dev
  python3 python3-matplotlib python3-scipy mypy python3-pip python3-setuptools python3-wheel python3-venv
  python3-pytest-xdist  # pytest -n: the Python tests on several workers (scripts/test.sh)
  libnorm-dev iproute2 ethtool tshark
  libisal-dev libsodium-dev
  libncurses-dev tmux
  libpgm-dev openjdk-17-jdk-headless maven
  help2man adduser  # the manual pages (src/install.cmake); the package's system user
  prometheus        # promtool and a server for the metrics endpoint's tests (emulation/tests/test_metrics_prometheus.py)
  faketime          # daemons with a skewed or stepped clock (clients/python/tests/test_clock_skew.py, test_clock_step.py)
)

source scripts/debian-packages.sh
ensure_debian_packages setup "${packages[@]}"
echo "setup: all build dependencies present"

# EMANE (emulation/run --engine emane): a user's own install, or the source
# snapshot beside the repository, built once into /opt/dissem-emane. The
# build runs in the background at the lowest CPU priority, so it takes only
# the CPU the rest leaves idle; scripts/setup-emane.sh (test.sh calls it
# before the EMANE tests) waits for it.
if [[ -z ${DISSEM_SKIP_EMANE:-} ]] && { [[ -n ${DISSEM_EMANE_PREFIX:-} ]] || ls ../shared/third-party/emane-*.tar.gz >/dev/null 2>&1; }; then
  bash scripts/setup-emane.sh --background
fi
