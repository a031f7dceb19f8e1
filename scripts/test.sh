#!/usr/bin/env bash
# Sets up and runs every test: the release build (some Swift 6 concurrency errors
# only show there), then the debug build and the test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh

swift build -c release
swift build --build-tests
swift test --skip-build

# The libFuzzer targets are not run here (docs/FUZZING.md), but they must still build.
bash scripts/fuzz 0
