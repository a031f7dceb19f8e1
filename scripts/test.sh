#!/usr/bin/env bash
# Sets up and runs every test: the release build (some Swift 6 concurrency errors
# only show there), then the debug build and the test suite (the fault matrix is in it),
# then the web reader in headless Chromium, then the short crash loop.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --browser-test

swift build -c release
swift build --build-tests
swift test --skip-build

# The web reader in a real browser against the release demo (docs/PROOF.md).
python3 scripts/browser-test --binary .build/release/twfeed

# The crash loop's short run (docs/PROOF.md has the long one): 5 SIGKILLs of the
# release daemon during backfill, posting and pruning.
bash scripts/crashloop 5 1
