#!/usr/bin/env bash
# Installs the system packages twfeed builds on, when they are missing (Debian/Ubuntu).
# With --browser-test, also what scripts/browser-test drives the web reader with:
# Debian's chromium and chromium-driver (and emoji, CJK and Devanagari fonts, so that its
# screenshot shows every name and post), and selenium and prometheus-client from PyPI.
set -euo pipefail
# Other arguments name more Debian packages (scripts/test.sh asks for the shells and mandoc).
browser_test=false
extra=()
for argument in "$@"; do
  if [ "$argument" = "--browser-test" ]; then browser_test=true; else extra+=("$argument"); fi
done

# sqlite3 and curl: scripts/crashloop checks the database and steers the emulator with them.
packages=(liboauth-dev libcurl4-openssl-dev libssl-dev libsqlite3-dev zlib1g-dev pkg-config sqlite3 curl ${extra[@]+"${extra[@]}"})
$browser_test && packages+=(chromium chromium-driver fonts-noto-color-emoji fonts-wqy-zenhei fonts-lohit-deva)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

command -v swift >/dev/null || { echo "setup: swift is not on PATH (Swift 6.2 or later is needed)" >&2; exit 69; }

if $browser_test && ! python3 -c "import selenium, prometheus_client" 2>/dev/null; then
  echo "setup: installing selenium and prometheus-client (PyPI)"
  pip=(python3 -m pip install --quiet --disable-pip-version-check "selenium>=4.15,<5" "prometheus-client>=0.17,<1")
  # A distribution's own Python (PEP 668) refuses pip unless told.
  "${pip[@]}" 2>/dev/null || "${pip[@]}" --break-system-packages
fi
