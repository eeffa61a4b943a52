# Sourced by scripts/setup.sh and scripts/setup-emane.sh.
# ensure_debian_packages WHO PACKAGE...: installs the packages not yet
# installed (as root), or stops naming them (otherwise). WHO starts the lines.
ensure_debian_packages() {
  local who=$1
  shift
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  ((${#missing[@]})) || return 0
  if [[ $(id -u) -ne 0 ]]; then
    echo "$who: missing packages (${missing[*]}); run as root or install them yourself" >&2
    exit 1
  fi
  echo "$who: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}
