#!/usr/bin/env bash
# Installs the system packages twfeed builds on, when they are missing (Debian/Ubuntu).
set -euo pipefail

# sqlite3 and curl: scripts/crashloop checks the database and steers the emulator with them.
# Arguments name more packages (scripts/test.sh asks for the shells and mandoc).
packages=(liboauth-dev libcurl4-openssl-dev libssl-dev libsqlite3-dev pkg-config sqlite3 curl "$@")
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
