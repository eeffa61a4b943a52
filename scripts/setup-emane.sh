#!/usr/bin/env bash
# Makes EMANE available to the emulation runner (emulation/run --engine emane).
#
# - An EMANE already installed (a user's own, e.g. Adjacent Link's packages,
#   or one named by $DISSEM_EMANE_PREFIX) is used as it is: this says which.
# - Otherwise the EMANE source snapshot in ../shared/third-party/ (or the
#   tarball named by $DISSEM_EMANE_TARBALL) is built once and installed under
#   a prefix of its own ($DISSEM_EMANE_PREFIX, default /opt/dissem-emane).
# - Idempotent: when the prefix already holds this version's build, a second
#   run costs seconds.
#
# Prints, last, the line `EMANE_PREFIX=<dir>` (or `EMANE_PREFIX=` for an EMANE
# on the default paths), which scripts and the runner's --emane-prefix take.
set -euo pipefail
cd "$(dirname "$0")/.."

version=1.5.3
prefix=${DISSEM_EMANE_PREFIX:-/opt/dissem-emane}
tarball=${DISSEM_EMANE_TARBALL:-$(realpath -m ../shared/third-party/emane-$version.tar.gz)}
stamp="$prefix/.dissem-emane-$version"

say() { echo "setup-emane: $*"; }

emane_version() {  # $1: the emane program
  "$1" --version 2>/dev/null | head -n1
}

# 1. An EMANE under our own prefix, built by an earlier run.
if [[ -f $stamp && -x $prefix/bin/emane ]]; then
  say "using EMANE $(LD_LIBRARY_PATH="$prefix/lib" emane_version "$prefix/bin/emane") built earlier in $prefix"
  echo "EMANE_PREFIX=$prefix"
  exit 0
fi

# 2. A user's own EMANE: under $DISSEM_EMANE_PREFIX if set, else on PATH.
if [[ -n ${DISSEM_EMANE_PREFIX:-} && -x $prefix/bin/emane ]]; then
  say "using the EMANE installed in $prefix: $(LD_LIBRARY_PATH="$prefix/lib" emane_version "$prefix/bin/emane")"
  echo "EMANE_PREFIX=$prefix"
  exit 0
fi
if [[ -z ${DISSEM_EMANE_PREFIX:-} ]] && command -v emane >/dev/null 2>&1; then
  found=$(command -v emane)
  say "using the EMANE on PATH: $found, version $(emane_version "$found")"
  echo "EMANE_PREFIX="
  exit 0
fi

# 3. Build the snapshot.
if [[ ! -f $tarball ]]; then
  say "no EMANE installed and no source snapshot at $tarball (set DISSEM_EMANE_TARBALL or install EMANE)" >&2
  exit 1
fi

packages=(autoconf automake libtool pkg-config libxml2-dev libprotobuf-dev protobuf-compiler
  libpcap-dev libpcre3-dev uuid-dev python3-protobuf python3-lxml python3-setuptools)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  if [[ $(id -u) -ne 0 ]]; then
    say "missing packages to build EMANE (${missing[*]}); run as root or install them yourself" >&2
    exit 1
  fi
  say "installing EMANE's build dependencies: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

work=$(mktemp -d /tmp/dissem-emane-build.XXXXXX)
trap 'rm -rf "$work"' EXIT
log="$work/build.log"
say "building EMANE $version from $tarball into $prefix (10-30 minutes, once; log: $log)"
tar -xzf "$tarball" -C "$work"
src=$(find "$work" -mindepth 1 -maxdepth 1 -type d | head -n1)
jobs=$(nproc)
# Debian's python3 (with python3-lxml and python3-protobuf) builds and runs
# EMANE's Python tools, whatever python3 comes first on PATH. No debug
# information: it costs build time and nothing here reads it.
if ! (cd "$src" && export PATH=/usr/bin:$PATH && ./autogen.sh &&
      ./configure --prefix="$prefix" PYTHON=/usr/bin/python3 CXXFLAGS="-O2" &&
      make -j "$jobs" && make install) >"$log" 2>&1; then
  tail -n 40 "$log" >&2
  say "the EMANE build failed (above: the end of its log)" >&2
  trap - EXIT
  exit 1
fi
say "installed: $(LD_LIBRARY_PATH="$prefix/lib" emane_version "$prefix/bin/emane")"
touch "$stamp"
echo "EMANE_PREFIX=$prefix"
