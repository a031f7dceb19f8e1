"""The demo, the browser, and what several checks share, each made on first use.

One `twfeed demo --serve` and one Chromium serve every check: a check gets the state
it needs from `Context` (a signed-in browser, the reply chain, the hostile posts, an
outbox with nothing pending) instead of from the check before it, so an earlier
failure cannot change what a later check sees. Shared posts are asked of the emulator
once, before the first check (`seed`), and waited for by the first check that needs
them; if that failed, every check that needs them fails saying so, without waiting again.
"""

import os
import queue
import re
import signal
import stat
import subprocess
import threading
import time
import urllib.parse

from .base import (CHAIN_DEPTH, CHROMEDRIVER, FEEDS, HOSTILE_NAME, HOSTILE_TEXT, QUOTED_NAME, QUOTED_TEXT,
                   REPOSTED_NAME, REPOSTED_TEXT, SESSION_COOKIE, Failure, check)
from .clients import Emulator, Reader
from .page import load, navigation_status, path_of


class Demo:
    """`twfeed demo --serve` as a child process; its stdout is read on a thread."""

    PATTERNS = {
        "folder": re.compile(r"^twfeed demo: .*\bfiles in (\S+)$"),
        "login": re.compile(r"^reader:\s+(http://\S+/login\?token=\S+)$"),
        "open": re.compile(r"\btwfeed open --config (\S+) --listen (\S+?)\)?$"),
        "emulator": re.compile(r"^emulator:\s+(http://\S+?)[.,]?$"),
    }

    def __init__(self, binary, tweets, dialect, folder, log_path):
        self.log_path = log_path
        self.lines = queue.Queue()
        self.stderr = open(log_path, "w")
        self.process = subprocess.Popen(
            [binary, "demo", "--serve", "--listen", "127.0.0.1:0", "--tweets", str(tweets), "--dialect", dialect,
             "--dir", folder],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=self.stderr, text=True, bufsize=1)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def started(self, seconds):
        """What the demo prints once serving: its folder, the reader's sign-in link, the
        `twfeed open` command for another link (config, address) and the emulator's URL."""
        found = {}
        deadline = time.monotonic() + seconds
        while len(found) < len(self.PATTERNS):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                missing = ", ".join(name for name in self.PATTERNS if name not in found)
                raise Failure(f"twfeed demo --serve did not print its {missing} line(s) within {seconds} s")
            try:
                line = self.lines.get(timeout=remaining)
            except queue.Empty:
                continue
            if line is None:
                raise Failure(f"twfeed demo --serve exited ({self.process.wait()}) before printing its URLs")
            for name, pattern in self.PATTERNS.items():
                match = pattern.search(line.strip())
                if match and name not in found:
                    found[name] = match.groups() if name == "open" else match.group(1)
        return found

    def stop(self, seconds):
        """SIGINT, as Ctrl-C; the exit status, or None if it did not exit in time (then killed)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        try:
            return self.process.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            return None
        finally:
            self.stderr.close()


def twfeed_open(binary, config, listen, feeds=False):
    """`twfeed open`'s lines: the sign-in link first, then (with --feeds) `FEED: URL` lines."""
    command = [binary, "open", "--config", config, "--listen", listen] + (["--feeds"] if feeds else [])
    result = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    check(result.returncode == 0, f"{' '.join(command)}: exit {result.returncode}: {result.stderr.strip()[:300]}")
    lines = result.stdout.splitlines()
    check(lines and re.match(r"^http://\S+/login\?token=\S+$", lines[0]),
          f"twfeed open: the first line is not a sign-in link: {lines[:1]}")
    return lines


def atom_keys(lines):
    """`FEED: URL` lines of `twfeed open --feeds`, as {feed: URL}."""
    keys = {}
    for line in lines[1:]:
        match = re.match(r"^(\w+): (http://\S+/feeds/(\w+)\.atom\?key=\S+)$", line)
        if match and match.group(1) == match.group(3):
            keys[match.group(1)] = match.group(2)
    check(sorted(keys) == sorted(FEEDS), f"twfeed open --feeds printed keyed Atom URLs for {sorted(keys)}, not {FEEDS}")
    return keys


def read_secret(folder):
    """The reader's secret from `reader-secret` beside the database: 0600, 64 hex digits."""
    path = os.path.join(folder, "reader-secret")
    check(os.path.exists(path), f"{path}: no reader secret beside the database")
    mode = stat.S_IMODE(os.stat(path).st_mode)
    check(mode & 0o077 == 0, f"{path}: mode {mode:o}, readable by others")
    with open(path) as handle:
        secret = handle.read().strip()
    check(re.fullmatch(r"[0-9a-f]{64}", secret), f"{path}: not 64 hex digits")
    return secret, mode


def start_browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1200,1600", "--hide-scrollbars",
                     "--disable-dev-shm-usage"]:
        options.add_argument(argument)
    if os.path.exists("/usr/bin/chromium"):
        options.binary_location = "/usr/bin/chromium"
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    return driver


class Context:
    """The run's demo and browser, and the state checks share."""

    def __init__(self, binary, tweets, dialect, work):
        self.binary, self.tweets, self.dialect, self.work = binary, tweets, dialect, work
        self.folder = os.path.join(work, "demo")
        self.log_path = os.path.join(work, "demo.log")
        self.stamp = time.strftime("%H:%M:%S")
        self.demo = self.driver = self.reader = self.emulator = None
        self.cancelled = []  # texts of statuses cancelled in the outbox: never to be sent
        self._made = {}

    # MARK: The demo

    def start(self):
        """Starts the demo and reads what it printed; the line saying where it serves."""
        self.demo = Demo(self.binary, self.tweets, self.dialect, self.folder, self.log_path)
        started = self.demo.started(90)
        check(os.path.realpath(started["folder"]) == os.path.realpath(self.folder),
              f"the demo's files are in {started['folder']}, not {self.folder}")
        self.config, self.listen = started["open"]
        self.login = started["login"]
        secret, mode = read_secret(started["folder"])
        origin = "{0}://{1}".format(*urllib.parse.urlsplit(started["login"])[:2])
        self.reader = Reader(origin, secret)
        self.emulator = Emulator(started["emulator"].rstrip("/"), self.dialect)
        return (f"twfeed demo --serve: reader {self.reader.base}, emulator {self.emulator.base}; "
                f"reader-secret (mode {mode:o}) in {started['folder']}")

    def stop(self):
        """Closes the browser; SIGINT to the demo, which must exit 0."""
        self.close_browser()
        if self.demo is None:
            return None
        status = self.demo.stop(10)
        check(status == 0,
              f"twfeed demo --serve: SIGINT gave {'no exit within 10 s' if status is None else f'exit {status}'}")
        return "SIGINT stopped the demo with exit 0"

    def log_tail(self, lines=15):
        if not os.path.exists(self.log_path):
            return []
        with open(self.log_path, errors="replace") as handle:
            return handle.readlines()[-lines:]

    # MARK: Shared state, made on first use

    def made(self, what, make):
        """`make()`'s value, made once; a failure to make it is remembered and raised again."""
        if what not in self._made:
            try:
                self._made[what] = (True, make())
            except Exception as error:
                self._made[what] = (False, error)
        succeeded, value = self._made[what]
        if not succeeded:
            reason = value if isinstance(value, Failure) else f"{type(value).__name__}: {value}"
            raise Failure(f"could not set up {what}: {str(reason).strip().splitlines()[0] if str(reason).strip() else reason}")
        return value

    def open_link(self, feeds=False):
        return twfeed_open(self.binary, self.config, self.listen, feeds=feeds)

    def atom_keys(self):
        return self.made("the Atom keys (twfeed open --feeds)", lambda: atom_keys(self.open_link(feeds=True)))

    def seed(self, hostile=True):
        """Asks the emulator for the shared posts at once, before the first check, so that
        the daemon's next polls store them while the access checks run. A failure here is
        reported by the checks that need the posts."""
        for make in [self._chain_at_emulator] + ([self._hostile_at_emulator] if hostile else []):
            try:
                make()
            except Failure:
                pass

    def _chain_at_emulator(self):
        return self.made("the reply chain", lambda: self.emulator.reply_chain(CHAIN_DEPTH))

    def _hostile_at_emulator(self):
        def make():
            added = self.emulator.tweet(HOSTILE_TEXT, HOSTILE_NAME)
            quote = self.emulator.referenced(QUOTED_TEXT, QUOTED_NAME, "quote")
            repost = self.emulator.referenced(REPOSTED_TEXT, REPOSTED_NAME, "repost")
            return {"id": added["id"], "username": added["username"], "quote": quote, "repost": repost}

        return self.made("the hostile tweet, quote and repost", make)

    def chain(self):
        """A conversation whose posts above the reply are in no timeline, the reply stored
        in home: {"id", "ancestors": [parent, ..., root]}."""
        chain = self._chain_at_emulator()
        self.made("the reply chain, stored", lambda: self.reader.stored_in_home(
            [chain["id"]], f"the reply {chain['id']} at the end of a chain of {CHAIN_DEPTH}"))
        return chain

    def hostile(self):
        """The hostile tweet, a quote of a hostile post and a repost of one, stored in home:
        {"id", "username", "quote", "repost"}."""
        hostile = self._hostile_at_emulator()
        self.made("the hostile tweet, quote and repost, stored", lambda: self.reader.stored_in_home(
            [hostile["id"], hostile["quote"]["id"], hostile["repost"]["id"]], "the hostile tweet, quote and repost"))
        return hostile

    # MARK: The browser

    def browser(self):
        """Chromium, started again if an earlier check left it dead; no alert left open."""
        from selenium.common.exceptions import NoAlertPresentException

        if self.driver is not None:
            try:
                try:
                    self.driver.switch_to.alert.dismiss()
                except NoAlertPresentException:
                    pass
                self.driver.current_url
            except Exception:
                self.close_browser()
        if self.driver is None:
            self.driver = start_browser()
        return self.driver

    def close_browser(self):
        if self.driver is not None:
            try:
                self.driver.quit()
            except Exception:  # already dead
                pass
            self.driver = None

    def signed_in(self):
        """The browser with a session: signed in through a new `twfeed open` link when it has none."""
        driver = self.browser()
        if not driver.current_url.startswith(self.reader.base):
            load(driver, self.reader.base + "healthz")
        if driver.get_cookie(SESSION_COOKIE) is None:
            link = self.open_link()[0]
            load(driver, link)
            check(path_of(driver) == "/home" and navigation_status(driver) == 200,
                  f"signing in through twfeed open's link led to {driver.current_url}")
        return driver

    def fresh_outbox(self):
        """No fault armed at the emulator and nothing pending in the outbox (an earlier
        check's held status would keep a new one waiting behind it)."""
        self.emulator.clear_faults()
        self.reader.cancel_pending()
