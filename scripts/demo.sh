#!/usr/bin/env bash
# Sets up, builds and runs `twfeed demo`: the API emulator and the daemon on loopback.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
(cd "$repo" && bash scripts/setup.sh && bash scripts/release-build)

# The demo prints commands to paste into this shell, naming the binary as it was
# started: so start it from here, by a path this shell reaches (relative when the
# binary lies below the current directory, as from the repository's root).
twfeed="$repo/.build/release/twfeed"
case "$twfeed" in "$PWD"/*) twfeed="${twfeed#"$PWD"/}" ;; esac
exec "$twfeed" demo "$@"
