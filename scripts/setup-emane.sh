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
#   scripts/setup-emane.sh               # returns when EMANE is there (waits for a build under way)
#   scripts/setup-emane.sh --background  # a build, if one is needed, runs detached at the lowest
#                                        # CPU priority (scripts/setup.sh: it soaks up idle CPU
#                                        # while other work goes on); the plain call waits for it
#
# Prints, last, the line `EMANE_PREFIX=<dir>` once EMANE is there.
set -euo pipefail
cd "$(dirname "$0")/.."

version=1.5.3
prefix=${DISSEM_EMANE_PREFIX:-/opt/dissem-emane}
tarball=${DISSEM_EMANE_TARBALL:-$(realpath -m ../shared/third-party/emane-$version.tar.gz)}
stamp="$prefix/.dissem-emane-$version"
lock="$prefix.lock"
log="$prefix.build.log"
background=0
[[ ${1:-} == --background ]] && background=1

say() { echo "setup-emane: $*"; }

emane_version() {  # $1: the emane program
  LD_LIBRARY_PATH="$(dirname "$(dirname "$1")")/lib" "$1" --version 2>/dev/null | head -n1
}

# An EMANE that is there already: ours from an earlier build, or a user's own.
found_installed() {
  if [[ -f $stamp && -x $prefix/bin/emane ]]; then
    say "using EMANE $(emane_version "$prefix/bin/emane") built earlier in $prefix"
    echo "EMANE_PREFIX=$prefix"
    return 0
  fi
  if [[ -n ${DISSEM_EMANE_PREFIX:-} && -x $prefix/bin/emane ]]; then
    say "using the EMANE installed in $prefix: $(emane_version "$prefix/bin/emane")"
    echo "EMANE_PREFIX=$prefix"
    return 0
  fi
  if [[ -z ${DISSEM_EMANE_PREFIX:-} ]] && command -v emane >/dev/null 2>&1; then
    local found
    found=$(command -v emane)
    say "using the EMANE on PATH: $found, version $(emane_version "$found")"
    echo "EMANE_PREFIX=$(dirname "$(dirname "$found")")"
    return 0
  fi
  return 1
}

found_installed && exit 0
if [[ ! -f $tarball ]]; then
  say "no EMANE installed and no source snapshot at $tarball (set DISSEM_EMANE_TARBALL, or install EMANE and set DISSEM_EMANE_PREFIX)" >&2
  exit 1
fi
mkdir -p "$(dirname "$prefix")"

if ((background)); then
  exec 9>"$lock"
  if ! flock -n 9; then
    say "an EMANE build is under way (log: $log); scripts/setup-emane.sh waits for it"
    exit 0
  fi
  flock -u 9
  nohup setsid nice -n 19 bash "$0" >"$log" 2>&1 </dev/null &
  say "building EMANE $version in the background at the lowest CPU priority (log: $log); scripts/setup-emane.sh waits for it"
  exit 0
fi

# One build at a time: a second caller waits here, then finds it done.
exec 9>"$lock"
if ! flock -n 9; then
  say "waiting for the EMANE build under way (log: $log)"
  flock 9
fi
found_installed && exit 0

source scripts/debian-packages.sh
ensure_debian_packages setup-emane autoconf automake libtool pkg-config libxml2-dev libprotobuf-dev \
  protobuf-compiler libpcap-dev libpcre3-dev uuid-dev python3-protobuf python3-lxml python3-setuptools

work=$(mktemp -d /tmp/dissem-emane-build.XXXXXX)
trap 'rm -rf "$work"' EXIT
build_log="$work/build.log"
start=$(date +%s)
say "building EMANE $version from $tarball into $prefix (10-30 minutes, once)"
tar -xzf "$tarball" -C "$work"
src=$(find "$work" -mindepth 1 -maxdepth 1 -type d | head -n1)
# Debian's python3 (with python3-lxml and python3-protobuf) builds and runs
# EMANE's Python tools, whatever python3 comes first on PATH. No debug
# information: it costs build time and nothing here reads it.
if ! (cd "$src" && export PATH=/usr/bin:$PATH && ./autogen.sh &&
      ./configure --prefix="$prefix" PYTHON=/usr/bin/python3 CXXFLAGS="-O2" &&
      make -j "$(nproc)" && make install) >"$build_log" 2>&1; then
  tail -n 40 "$build_log" >&2
  say "the EMANE build failed (above: the end of its log)" >&2
  exit 1
fi
touch "$stamp"
say "installed $(emane_version "$prefix/bin/emane") in $prefix in $(( $(date +%s) - start )) s"
echo "EMANE_PREFIX=$prefix"
