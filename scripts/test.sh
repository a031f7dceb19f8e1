#!/usr/bin/env bash
# Sets up and runs every test: one release build (some Swift 6 concurrency errors only
# show there), then the test suite on it (the fault matrix is in it) and, beside it, the
# Debian package and its checks, the web reader in headless Chromium and the short crash
# loop. Each stage says how long it took.
# --fast: the tier to run while working (about two minutes after its build): the format
# check, one debug build and every unit suite; not the integration suite (the fault
# matrix is in it), the package, the browser test or the crash loop.
set -euo pipefail
cd "$(dirname "$0")/.."
# Every temporary file of the run goes in one folder, removed at the end: SwiftPM leaves
# an empty TemporaryDirectory.XXXXXX behind for each command, and a test that dies
# midway cannot clean up after itself.
# Searchable by others as /tmp is: some tests run twfeed as another user (nobody), who
# must reach the test's files to be refused by their own modes, not by this folder's.
TMPDIR=$(mktemp -d "${TMPDIR:-/tmp}/twfeed-test.XXXXXX")
chmod 755 "$TMPDIR"
export TMPDIR
# A stage that fails stops the run; whatever still runs beside it stops too.
trap 'jobs -p | xargs -r kill 2>/dev/null; rm -rf "$TMPDIR"' EXIT

# Each stage's wall time, so a slow run says where its minutes went.
stage() {
  local name=$1 started=$SECONDS
  shift
  "$@"
  echo "test.sh: $name took $((SECONDS - started)) s" >&2
}

if [ "${1:-}" = "--fast" ]; then
  bash scripts/setup.sh
  bash scripts/format-check
  # The test bundle only: a bare `swift build` also compiles every product of every
  # dependency package (scripts/release-build says which), which the tests never link.
  swift build --product twfeedPackageTests
  # Every test target but the integration suite, whatever the unit targets are called.
  swift test --skip-build --skip '^IntegrationTests\.'
  exit 0
fi

# zsh and fish: the completion tests run in each shell; mandoc checks the man page;
# --browser-test: chromium, its driver and selenium for the reader's browser test;
# dpkg-dev, binutils and lintian: the package's build and checks.
stage setup bash scripts/setup.sh --browser-test zsh fish mandoc dpkg-dev binutils lintian

# Sources/ as `swift format` writes it with the root .swift-format (a second of work).
stage format-check bash scripts/format-check

# One release build for everything below: the test bundle, the binaries the browser test
# and the crash loop run, and (linked again with the static runtime) the package's
# binaries; scripts/release-build says why (some Swift 6 concurrency errors only show in
# release builds, too).
stage build bash scripts/release-build --with-tests --static

# The test suite runs beside the checks below: much of its time is spent waiting on the
# daemons and emulators it starts (the fault matrix's slow answers and back-offs), and
# the checks below need only the binaries. Its output is shown whole when it ends.
stage "swift test" swift test -c release --skip-build >"$TMPDIR/swift-test.log" 2>&1 &
suite=$!

# The shell completions and the man page as scripts/install-extras installs them (into
# a scratch root): the page, generated from the commands, renders without an error.
extras() {
  local root
  root=$(mktemp -d)
  bash scripts/install-extras --root "$root"
  mandoc -T lint -W error "$root/usr/local/share/man/man1/twfeed.1"
  grep -q '^\.It Em feed$' "$root/usr/local/share/man/man1/twfeed.1"
  rm -rf "$root"
}
stage extras extras

# The Debian package from that release build: its control, files, binaries without the
# toolchain, lintian and both units (scripts/package-test says what it checks); --quick
# compresses it less, a sixth of the CPU time.
stage package bash scripts/package --skip-build --quick
stage package-test bash scripts/package-test
# docs/OPERATIONS.md's install by hand, followed as written in a scratch root.
stage install-guide-test bash scripts/install-guide-test

# The web reader in a real browser against the release demo (docs/PROOF.md).
stage browser-test python3 scripts/browser-test --binary .build/release/twfeed

# The crash loop's short run (docs/PROOF.md has the long one): 5 SIGKILLs of the
# release daemon during backfill, posting and pruning.
stage crashloop bash scripts/crashloop 5 1

status=0
wait "$suite" || status=$?
cat "$TMPDIR/swift-test.log"
exit "$status"
