#!/usr/bin/env bash
# Sets up and runs every test: one release build (some Swift 6 concurrency errors only
# show there), then three lanes side by side: the test suite on it (the fault matrix is
# in it); the web reader in headless Chromium and the short crash loop; the static link,
# the install by hand, the Debian package and its checks. Each stage says how long it took.
# --fast: the tier to run while working (about two minutes after its build): the format
# check, one debug build and every unit suite; not the integration suite (the fault
# matrix is in it), the package, the browser test or the crash loop.
# Both build, in a fresh clone, in a folder that the clones on this machine share
# (scripts/shared-build), so that only the first compiles the dependencies.
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
# A fresh clone builds in a folder that clones on this machine share, and compiles only
# twfeed there, not its dependencies again; scripts/shared-build says how and why.
source scripts/shared-build
shared_build_take
# A stage that fails stops the run; whatever still runs beside it stops too.
trap 'jobs -p | xargs -r kill 2>/dev/null; shared_build_release; rm -rf "$TMPDIR"' EXIT

# Each stage's wall time, so a slow run says where its minutes went.
stage() {
  local name=$1 started=$SECONDS status=0
  shift
  "$@" || status=$?
  echo "test.sh: $name took $((SECONDS - started)) s$([ "$status" = 0 ] || echo ", failed (exit $status)")" >&2
  return "$status"
}

if [ "${1:-}" = "--fast" ]; then
  bash scripts/setup.sh
  bash scripts/format-check
  # The test bundle only: a bare `swift build` also compiles every product of every
  # dependency package (scripts/release-build says which), which the tests never link.
  # Through scripts/swiftpm, as every SwiftPM call here, for its shared manifest cache.
  bash scripts/swiftpm build --product twfeedPackageTests ||
    shared_build_retry bash scripts/swiftpm build --product twfeedPackageTests
  # Every test target but the integration suite, whatever the unit targets are called:
  # the bundle itself, as `swift test --skip-build` runs it for Swift Testing, with this
  # run's TMPDIR (scripts/swiftpm gives SwiftPM its own).
  .build/debug/twfeedPackageTests.xctest --testing-library swift-testing --skip '^IntegrationTests\.'
  exit 0
fi

# SwiftPM's resolve needs only the toolchain, and runs on about one core (each
# dependency's manifest, then its working copy, one package at a time): it runs beside
# the setup and the format check instead of after them. Through scripts/swiftpm, which
# lets a fresh clone use the manifests that SwiftPM evaluated for an earlier one (about
# 4 s instead of 17 on a machine that has run the tests before).
bash scripts/swiftpm package resolve >"$TMPDIR/resolve.log" 2>&1 &
resolving=$!

# zsh and fish: the completion tests run in each shell; mandoc checks the man page;
# --browser-test: chromium, its driver and selenium for the reader's browser test;
# dpkg-dev, binutils and lintian: the package's build and checks.
stage setup bash scripts/setup.sh --browser-test zsh fish mandoc dpkg-dev binutils lintian

# Sources/ as `swift format` writes it with the root .swift-format (a second of work).
stage format-check bash scripts/format-check

resolved() { wait "$resolving" || { cat "$TMPDIR/resolve.log" >&2; return 1; }; }
stage resolve resolved

# One release build for everything below: the test bundle, the binaries the browser test
# and the crash loop run, and (linked again with the static runtime, in the package's
# lane) the package's binaries; scripts/release-build says why (some Swift 6 concurrency
# errors only show in release builds, too).
release_build() { bash scripts/release-build --with-tests || shared_build_retry bash scripts/release-build --with-tests; }
stage build release_build

# After the build, three lanes run side by side, those in the background each writing its
# own log, shown whole when it ends: the test suite (much of its time is spent waiting on
# the daemons and emulators it starts: the fault matrix's slow answers and back-offs),
# the browser lane, and the package lane (with the install by hand) here in the foreground.
# All of them need only the build.
lanes=()
lane() {
  local name=$1
  shift
  ( "$@" ) >"$TMPDIR/lane-$name.log" 2>&1 &
  lanes+=("$name:$!")
}

# The bundle itself, as `swift test` runs it for Swift Testing: no SwiftPM call plans
# a build that is already made.
lane suite stage "swift test" .build/release/twfeedPackageTests.xctest --testing-library swift-testing

# The web reader in a real browser against the release demo (docs/PROOF.md), then the
# crash loop's short run (docs/PROOF.md has the long one): 5 SIGKILLs of the release
# daemon during backfill, posting and pruning.
browser_lane() {
  local status=0
  stage browser-test python3 scripts/browser-test --binary .build/release/twfeed || status=1
  # BIN: not SwiftPM's --show-bin-path, which would wait for the package lane's build.
  stage crashloop env BIN=.build/release bash scripts/crashloop 5 1 || status=1
  return "$status"
}
lane browser browser_lane

# The shell completions and the man pages as scripts/install-extras installs them (into
# a scratch root): the page (docs/man/, which the suite holds to the commands) renders
# without an error.
# (Chained with &&: inside a lane a failed command does not end the function by itself.)
extras() {
  local root status=0
  root=$(mktemp -d)
  bash scripts/install-extras --root "$root" &&
    mandoc -T lint -W error "$root/usr/local/share/man/man1/twfeed.1" &&
    grep -q '^\.It Em feed$' "$root/usr/local/share/man/man1/twfeed.1" || status=$?
  rm -rf "$root"
  return "$status"
}

# The Debian package from that release build: its control, files, binaries without the
# toolchain, lintian and both units (scripts/package-test says what it checks); --quick
# compresses it with gzip -1, not xz -6 (the content is checked, not the size). The
# static link is here, not in the build stage: only this lane needs it, and here it
# overlaps the suite's waits.
package_lane() {
  stage static-link bash scripts/release-build --static-only || return 1
  # docs/OPERATIONS.md's install by hand, followed as written in a scratch root, but for
  # its build (the build stage above is that step); it installs the static binaries, so
  # it comes after their link. A failure here does not stop the package's checks.
  local status=0
  stage install-guide-test bash scripts/install-guide-test --skip-build || status=1
  stage extras extras &&
    stage package bash scripts/package --skip-build --quick &&
    stage package-test bash scripts/package-test || status=1
  return "$status"
}
# A lane that fails does not stop the others: every failure of the run is shown.
status=0
package_lane || status=1
for entry in "${lanes[@]}"; do
  name=${entry%%:*}
  if wait "${entry##*:}"; then result=passed; else result=failed; status=1; fi
  echo "test.sh: ---- lane $name ($result) ----"
  cat "$TMPDIR/lane-$name.log"
done
exit "$status"
