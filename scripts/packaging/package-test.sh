#!/usr/bin/env bash
# The Debian package, end to end, as an operator meets it (root only; run by
# scripts/test.sh):
#  1. cpack builds dissem_<version>_<arch>.deb from a built tree;
#  2. dpkg -i installs it: programs answer --version, manual pages, units and
#     /etc/dissem/dissemd.toml are in place, the user `dissem` exists;
#  3. dissemd starts as the service would (systemctl when systemd runs, else
#     the installed binary as the user dissem, with the unit's directories);
#  4. a user in the group dissem runs the installed `dissem`, without
#     --socket, and receives a file that a second installed daemon publishes;
#     a user outside the group cannot reach the socket;
#  5. an application and the example plugin build against the installed
#     package only (find_package(dissem)), and the application publishes and
#     receives through libdissem-client;
#  6. dpkg -r leaves none of the package's files but its conffile; dpkg
#     --purge removes that, the cache and the user.
# Usage: scripts/packaging/package-test.sh BUILD_DIR (a Release tree).
# Exits 0 when every step passed; 77 (skipped) when not root.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:?usage: package-test.sh BUILD_DIR}

if [[ $(id -u) -ne 0 ]]; then
  echo "package-test: SKIPPED, needs root (dpkg -i, a system user, /run/dissem)" >&2
  exit 77
fi
if dpkg -s dissem >/dev/null 2>&1; then
  echo "package-test: a dissem package is already installed here; this test installs and purges its own, so it" \
    "will not run (dpkg --purge dissem first)" >&2
  exit 1
fi
if getent passwd dissem >/dev/null; then
  echo "package-test: a user named dissem exists without the package; purging would delete it, so the test" \
    "will not run" >&2
  exit 1
fi

work=$(mktemp -d /tmp/dissem-package-XXXXXX)
chmod 755 "$work"
client_user=dissem-pkgtest
pids=()
installed=0
made_run_dir=0
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  if [[ -d /run/systemd/system ]] && ((installed)); then systemctl stop dissemd 2>/dev/null || true; fi
  if dpkg -s dissem >/dev/null 2>&1; then dpkg --purge dissem >/dev/null 2>&1 || true; fi
  if getent passwd "$client_user" >/dev/null; then userdel "$client_user" 2>/dev/null || true; fi
  rm -rf "$work"
  if ((made_run_dir)); then rm -rf /run/dissem; fi
}
trap cleanup EXIT INT TERM
fail() {
  echo "package-test: FAILED: $*" >&2
  exit 1
}
wait_for_socket() {  # PATH: up to 10 s
  for _ in $(seq 100); do [[ -S $1 ]] && return 0; sleep 0.1; done
  fail "no socket at $1 after 10 s"
}

echo "== package: cpack -G DEB from $build"
cmake --build "$build" --target dissemd dissem dissem-norm-gateway dissem_client_shared dissem_manual_pages >/dev/null
cpack --config "$build/CPackConfig.cmake" -B "$work/package" >"$work/cpack.log" 2>&1 || {
  cat "$work/cpack.log" >&2
  fail "cpack"
}
deb=$(ls "$work"/package/dissem_*.deb)
version=$(dpkg-deb -f "$deb" Version)
echo "   $(basename "$deb"): $(dpkg-deb -f "$deb" Depends)"

echo "== install: dpkg -i"
dpkg -i "$deb" >"$work/dpkg.log" 2>&1 || {
  cat "$work/dpkg.log" >&2
  fail "dpkg -i"
}
installed=1
dpkg -L dissem | sort >"$work/files"
for program in /usr/sbin/dissemd /usr/sbin/dissem-norm-gateway /usr/bin/dissem; do
  got=$("$program" --version)
  [[ $got == "$(basename "$program") $version" ]] || fail "$program --version said '$got', not '$(basename "$program") $version'"
done
for f in /usr/share/man/man8/dissemd.8 /usr/share/man/man8/dissem-norm-gateway.8 /usr/share/man/man1/dissem.1 \
  /etc/dissem/dissemd.toml /lib/systemd/system/dissemd.service /lib/systemd/system/dissem-norm-gateway.service \
  /usr/include/dissem/client/client.h /usr/include/dissem/controllers/plugin/dissem_controller_plugin.h \
  /usr/lib/cmake/dissem/dissemConfig.cmake; do
  [[ -f $f ]] || fail "$f not installed"
done
grep -qx "ExecStart=/usr/sbin/dissemd --config /etc/dissem/dissemd.toml" /lib/systemd/system/dissemd.service ||
  fail "dissemd.service does not start the installed dissemd with /etc/dissem/dissemd.toml"
getent passwd dissem >/dev/null || fail "no system user dissem"
[[ $(dpkg-query -W -f '${Conffiles}' dissem) == *"/etc/dissem/dissemd.toml"* ]] || fail "dissemd.toml is no conffile"
echo "   programs say $version; manual pages, units, configuration, headers, CMake package, user dissem: present"

port=$((20000 + RANDOM % 20000))
sed -i "s/^port = .*/port = $port/" /etc/dissem/dissemd.toml  # away from other daemons on this host
if [[ -d /run/systemd/system ]]; then
  echo "== service: systemctl start dissemd"
  systemctl daemon-reload
  systemctl start dissemd || fail "systemctl start dissemd"
else
  echo "== service: no systemd here; the installed dissemd as the unit runs it (user dissem, umask 0007)"
  [[ -e /run/dissem ]] || made_run_dir=1
  install -d -o dissem -g dissem -m 0750 /run/dissem /var/lib/dissem
  runuser -u dissem -- sh -c 'umask 0007; exec /usr/sbin/dissemd --config /etc/dissem/dissemd.toml' \
    >"$work/service.log" 2>&1 &
  pids+=($!)
fi
wait_for_socket /run/dissem/dissemd.sock
[[ $(stat -c '%G %a' /run/dissem/dissemd.sock) == "dissem 660" ]] ||
  fail "the service's socket is $(stat -c '%U:%G %a' /run/dissem/dissemd.sock), not group dissem, 660"
sed -i 's/^level = .*/level = "debug"/' /etc/dissem/dissemd.toml
reloaded=$(/usr/bin/dissem --socket /run/dissem/dissemd.sock reload) || fail "dissem reload: $reloaded"
[[ $reloaded == *"applied: log.level"* ]] || fail "the reload did not apply log.level: $reloaded"
echo "   dissem reload applied the edited /etc/dissem/dissemd.toml"

echo "== clients: a user in the group dissem, with the installed dissem and no --socket"
useradd --system --no-create-home --shell /usr/sbin/nologin --groups dissem "$client_user"
"/usr/sbin/dissemd" --interface lo --port "$port" --cache "$work/publisher.db" --socket "$work/publisher.sock" \
  --log-level warn >"$work/publisher.log" 2>&1 &
pids+=($!)
wait_for_socket "$work/publisher.sock"
install -d -o "$client_user" "$work/received"
head -c 300000 /dev/urandom >"$work/file.bin"
runuser -u "$client_user" -- env -u XDG_RUNTIME_DIR /usr/bin/dissem subscribe pkg --count 1 --timeout-s 60 \
  --out "$work/received" >"$work/subscriber.log" 2>&1 &
subscriber=$!
pids+=($subscriber)
sleep 1
/usr/bin/dissem --socket "$work/publisher.sock" publish pkg "$work/file.bin" >/dev/null
wait "$subscriber" || {
  cat "$work/subscriber.log" >&2
  fail "the subscriber in the group dissem received nothing"
}
cmp -s "$work/file.bin" "$work"/received/* || fail "the file arrived altered"
echo "   300,000 bytes from a second daemon, byte-identical"
if runuser -u nobody -- /usr/bin/dissem --socket /run/dissem/dissemd.sock stats >/dev/null 2>&1; then
  fail "a user outside the group dissem reached the socket"
fi
echo "   a user outside the group cannot reach the socket"

echo "== development: an application and the example plugin against the installed package only"
cmake -S scripts/packaging/consumer -B "$work/consumer" -G Ninja \
  -DDISSEM_EXAMPLE_PLUGIN=/usr/share/doc/dissem/examples/priority_relay.c >"$work/consumer.log" 2>&1 &&
  cmake --build "$work/consumer" >>"$work/consumer.log" 2>&1 || {
  cat "$work/consumer.log" >&2
  fail "find_package(dissem) build"
}
runuser -u "$client_user" -- "$work/consumer/dissem-consumer" /run/dissem/dissemd.sock ||
  fail "the application could not publish and receive through libdissem-client"

echo "== removal: dpkg -r, then dpkg --purge"
if [[ -d /run/systemd/system ]]; then systemctl stop dissemd; fi
for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
wait 2>/dev/null || true
pids=()
dpkg -r dissem >"$work/dpkg.log" 2>&1 || {
  cat "$work/dpkg.log" >&2
  fail "dpkg -r"
}
left=()
while read -r f; do
  [[ -d $f || $f == /etc/dissem/dissemd.toml ]] && continue
  [[ -e $f || -L $f ]] && left+=("$f")
done <"$work/files"
((${#left[@]} == 0)) || fail "dpkg -r left ${left[*]}"
dpkg --purge dissem >"$work/dpkg.log" 2>&1 || {
  cat "$work/dpkg.log" >&2
  fail "dpkg --purge"
}
installed=0
[[ ! -e /etc/dissem/dissemd.toml ]] || fail "dpkg --purge left /etc/dissem/dissemd.toml"
[[ ! -e /var/lib/dissem ]] || fail "dpkg --purge left /var/lib/dissem"
! getent passwd dissem >/dev/null || fail "dpkg --purge left the user dissem"
echo "   dpkg -r left only the conffile; dpkg --purge left nothing"
echo "package-test: passed"
