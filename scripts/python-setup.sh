#!/usr/bin/env bash
# Installs what the Python client (clients/python), its tests and the
# experiment report (emulation/report) need into the system Python with pip:
# the protobuf runtime, pytest, pytest-xdist (scripts/test.sh runs the tests
# on several workers), matplotlib and scipy (Debian's python3-matplotlib,
# python3-scipy and python3-pytest-xdist already serve /usr/bin/python3; scipy
# runs the seed-002 report's Kolmogorov-Smirnov and Mann-Whitney tests). Idempotent and
# fast: when all import already (and the generated ipc_pb2 loads), it only
# checks and exits.
set -euo pipefail
cd "$(dirname "$0")/.."

py=${PYTHON:-python3}
src=clients/python/src
protobuf_req='protobuf>=3.20,<5'

command -v "$py" >/dev/null || { echo "python-setup: $py not found (apt-get install python3)" >&2; exit 1; }

protobuf_ok() { PYTHONPATH="$src" "$py" -c 'import dissem_client.ipc_pb2' >/dev/null 2>&1; }
pytest_ok() { "$py" -c 'import pytest' >/dev/null 2>&1; }
xdist_ok() { "$py" -c 'import xdist' >/dev/null 2>&1; }
matplotlib_ok() { "$py" -c 'import matplotlib' >/dev/null 2>&1; }
scipy_ok() { "$py" -c 'import scipy.stats' >/dev/null 2>&1; }

need=()
protobuf_ok || need+=("$protobuf_req")
pytest_ok || need+=(pytest)
xdist_ok || need+=(pytest-xdist)
matplotlib_ok || need+=(matplotlib)
scipy_ok || need+=(scipy)
if ((${#need[@]} == 0)); then
  echo "python-setup: protobuf, pytest, pytest-xdist, matplotlib and scipy present"
  exit 0
fi

# pip itself: Debian's python3 ships without it.
if ! "$py" -m pip --version >/dev/null 2>&1; then
  if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null && [[ $(command -v "$py") == /usr/bin/* ]]; then
    echo "python-setup: installing python3-pip"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends python3-pip >/dev/null
  else
    "$py" -m ensurepip --upgrade >/dev/null 2>&1 || true
  fi
  "$py" -m pip --version >/dev/null 2>&1 || { echo "python-setup: pip is missing for $py" >&2; exit 1; }
fi

flags=(--quiet --disable-pip-version-check)
# PEP 668 (Debian 12's system Python): pip refuses to touch it unless told.
in_venv=$("$py" -c 'import sys; print(int(sys.prefix != sys.base_prefix))')
if [[ $in_venv == 0 ]]; then
  managed=$("$py" -c 'import os, sysconfig; print(int(os.path.exists(os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED"))))')
  if [[ $managed == 1 ]]; then
    export PIP_BREAK_SYSTEM_PACKAGES=1  # an environment variable: older pips ignore it
  fi
  if [[ $(id -u) -ne 0 ]] && [[ ! -w $("$py" -c 'import sysconfig; print(sysconfig.get_path("purelib"))') ]]; then
    flags+=(--user)
  fi
fi

[[ $(id -u) -ne 0 ]] || export PIP_ROOT_USER_ACTION=ignore
echo "python-setup: installing ${need[*]}"
"$py" -m pip install "${flags[@]}" "${need[@]}"

protobuf_ok || { echo "python-setup: dissem_client.ipc_pb2 still does not import" >&2; PYTHONPATH="$src" "$py" -c 'import dissem_client.ipc_pb2'; exit 1; }
pytest_ok || { echo "python-setup: pytest still does not import" >&2; exit 1; }
xdist_ok || { echo "python-setup: pytest-xdist still does not import" >&2; exit 1; }
matplotlib_ok || { echo "python-setup: matplotlib still does not import" >&2; exit 1; }
scipy_ok || { echo "python-setup: scipy still does not import" >&2; exit 1; }
echo "python-setup: protobuf, pytest, pytest-xdist, matplotlib and scipy present"
