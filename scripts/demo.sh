#!/usr/bin/env bash
# Sets up, builds and runs `twfeed demo`: the API emulator and the daemon on loopback.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh

swift build -c release --product twfeed
exec .build/release/twfeed demo "$@"
