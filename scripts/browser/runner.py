"""Runs the checks: each reported by name, a failure not stopping the rest; a summary
and the exit status at the end."""

import argparse
import os
import sys
import tempfile
import time

from . import access, conversations, feeds, media, metrics, posting, reading, security
from .base import CHROMEDRIVER, Failure, Skip
from .harness import Context

# The order they run in: the reply chain joins home before the hostile posts (the
# screenshot shows home without them), media before reading (its pages fill the image
# cache that paging then finds full), posting after reading (its posts join home),
# metrics next to last (its second scrape comes at least 20 s after the first), and
# each concern's FINAL_CHECKS (signing out) after all the rest.
CONCERNS = [access, conversations, media, reading, security, feeds, posting, metrics]


def concern_name(module):
    return module.__name__.rsplit(".", 1)[-1]


def all_checks():
    """[(name, function)] in running order; a name is CONCERN.CHECK."""
    return [(f"{concern_name(module)}.{name}", function) for part in ["CHECKS", "FINAL_CHECKS"]
            for module in CONCERNS for name, function in getattr(module, part, [])]


def select(checks, only):
    """The checks `--only` names (concerns, or single checks), in running order."""
    if not only:
        return checks
    wanted = [word.strip() for word in only.split(",") if word.strip()]
    known = {name.split(".")[0] for name, _ in checks} | {name for name, _ in checks}
    unknown = [word for word in wanted if word not in known]
    if unknown:
        raise ValueError(f"no concern or check named {', '.join(unknown)} (concerns: "
                         f"{', '.join(concern_name(module) for module in CONCERNS)}; --list names every check)")
    return [(name, function) for name, function in checks
            if name in wanted or name.split(".")[0] in wanted]


def first_line(error):
    text = str(error).strip()
    line = text.splitlines()[0] if text else ""
    return line if isinstance(error, (Failure, Skip)) else f"{type(error).__name__}: {line}".rstrip(": ")


class Results:
    def __init__(self):
        self.passed, self.failed, self.skipped = [], [], []

    def run(self, name, function):
        """Runs one check; True when it passed. A browser error (an element not found, a
        crash) fails the check like a Failure does."""
        started = time.monotonic()
        try:
            message = function()
        except Skip as skip:
            self.skipped.append(name)
            print(f"browser-test: skipped: {name}: {first_line(skip)}", flush=True)
            return False
        except Exception as error:
            self.failed.append(name)
            print(f"browser-test: FAIL: {name}: {first_line(error)} ({time.monotonic() - started:.1f} s)",
                  file=sys.stderr, flush=True)
            return False
        self.passed.append(name)
        print(f"browser-test: ok: {name}: {message} ({time.monotonic() - started:.1f} s)", flush=True)
        return True


def run(binary, tweets, dialect, checks, work):
    ctx = Context(binary, tweets, dialect, work)
    results = Results()
    not_run = []
    try:
        if results.run("demo.start", ctx.start):
            try:
                metrics.first_scrape(ctx)  # the poll counter's starting point
            except Failure:
                pass  # the metrics checks report it
            # The screenshot shows home before the hostile posts join it.
            ctx.seed(hostile=not any(name == "conversations.screenshot" for name, _ in checks)
                     or not os.environ.get("TWFEED_SCREENSHOT"))
            for name, function in checks:
                results.run(name, lambda: function(ctx))
        else:
            not_run = [name for name, _ in checks]
    finally:
        results.run("demo.stop", ctx.stop)
    if results.failed:
        tail = ctx.log_tail()
        if tail:
            print("browser-test: the demo's last log lines:\n" + "".join(tail), file=sys.stderr, end="", flush=True)
    return results, not_run


def main():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    parser = argparse.ArgumentParser(prog="browser-test",
                                     description="The web reader in headless Chromium, against twfeed demo --serve.")
    parser.add_argument("--binary", default=os.environ.get("TWFEED_BINARY", os.path.join(root, ".build/release/twfeed")))
    parser.add_argument("--tweets", type=int, default=120, help="tweets per feed in the emulator (default 120)")
    parser.add_argument("--dialect", choices=["v2", "v1.1"], default="v2", help="the API dialect the demo speaks")
    parser.add_argument("--only", metavar="NAMES",
                        help="run only these concerns or checks, comma-separated (e.g. access,reading or posting.reply)")
    parser.add_argument("--list", action="store_true", help="name every check, in running order, and exit")
    args = parser.parse_args()

    try:
        checks = select(all_checks(), args.only)
    except ValueError as error:
        parser.error(f"--only: {error}")  # exits 2
    if args.list:
        for name, _ in checks:
            print(name)
        return 0

    missing = [what for what, present in [
        (args.binary, os.access(args.binary, os.X_OK)), (CHROMEDRIVER, os.access(CHROMEDRIVER, os.X_OK))] if not present]
    for module in ["selenium", "prometheus_client"]:
        try:
            __import__(module)
        except ImportError:
            missing.append(f"the Python module {module}")
    if missing:
        print(f"browser-test: missing {', '.join(missing)} (scripts/setup.sh --browser-test installs them; "
              "bash scripts/release-build builds twfeed)", file=sys.stderr)
        return 2

    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="twfeed-browser-test-") as work:
        results, not_run = run(os.path.abspath(args.binary), args.tweets, args.dialect, checks, work)
    elapsed = time.monotonic() - started
    counts = f"{len(results.passed)} passed, {len(results.failed)} failed"
    if results.skipped:
        counts += f", {len(results.skipped)} skipped"
    if not_run:
        counts += f", {len(not_run)} not run"
    if results.failed:
        print(f"browser-test: FAIL: {counts} in {elapsed:.0f} s; failed: {', '.join(results.failed)}",
              file=sys.stderr, flush=True)
        return 1
    print(f"browser-test: passed: {counts} in {elapsed:.0f} s", flush=True)
    return 0
