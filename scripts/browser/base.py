"""What every check uses: the failure it raises, waiting, and HTTP without the browser."""

import json
import time
import urllib.error
import urllib.request

HOSTILE_TEXT = "<img src=x onerror=alert(1)><script>alert(2)</script>"
HOSTILE_NAME = '<b>Bold</b> & "quoted"'
# A quoted post and a reposted original with markup for text and names, each in no
# timeline: home has a followed account's quote or repost of it (the emulator's
# `POST /_emulator/tweets` with "via").
QUOTED_TEXT = "<img src=x onerror=alert(3)><script>alert(4)</script> (quoted)"
QUOTED_NAME = '<b>Quoted</b> & "co"'
REPOSTED_TEXT = "<img src=x onerror=alert(5)><script>alert(6)</script> (reposted)"
REPOSTED_NAME = '<b>Reposted</b> & "co"'
# The reply chain's ancestors (in no timeline) above the post that joins home.
CHAIN_DEPTH = 5
PAGE_SIZE = 50
CHROMEDRIVER = "/usr/bin/chromedriver"
SESSION_COOKIE = "twfeed_session"
# The polled timelines and the archive's (`twfeed import`; the demo imports the emulator's).
FEEDS = ["home", "mentions", "retweets", "posts", "likes"]
# How each image type the reader serves starts.
IMAGE_MAGIC = {"image/png": b"\x89PNG", "image/jpeg": b"\xff\xd8\xff", "image/gif": b"GIF8", "image/webp": b"RIFF"}


class Failure(Exception):
    """A check that did not hold: one line saying what."""


class Skip(Exception):
    """A check that does not apply to this run (one line saying why)."""


def check(condition, message):
    if not condition:
        raise Failure(message)


def wait_until(what, seconds, probe, interval=0.5):
    """Calls `probe` until it returns something truthy; returns that, or fails naming `what`."""
    deadline = time.monotonic() + seconds
    last_error = None
    while True:
        try:
            value = probe()
            if value:
                return value
        except Failure:
            raise
        except Exception as error:  # the next try may work (a page still loading)
            last_error = error
        if time.monotonic() >= deadline:
            detail = f" (last error: {last_error})" if last_error else ""
            raise Failure(f"{what}: not within {seconds:g} s{detail}")
        time.sleep(interval)


class _KeepRedirects(urllib.request.HTTPRedirectHandler):
    """A redirect is the answer itself (its status, Location and Set-Cookie), not followed."""

    def redirect_request(self, *args, **kwargs):
        return None


_NOT_FOLLOWING = urllib.request.build_opener(_KeepRedirects)


def fetch(url, data=None, method=None, content_type=None, headers=None, bearer=None, follow=True):
    """(status, headers, body bytes); an HTTP error status is an answer, not an exception.
    `bearer`: the reader's secret, sent as `Authorization: Bearer`."""
    request = urllib.request.Request(url, data=data, method=method)
    if content_type:
        request.add_header("Content-Type", content_type)
    if bearer:
        request.add_header("Authorization", f"Bearer {bearer}")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with (urllib.request.urlopen if follow else _NOT_FOLLOWING.open)(request, timeout=15) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def fetch_json(url, payload=None, method=None, bearer=None):
    data = json.dumps(payload).encode() if payload is not None else None
    status, _, body = fetch(url, data=data, method=method or ("POST" if data else "GET"),
                            content_type="application/json" if data else None, bearer=bearer)
    check(status == 200, f"{url}: status {status}: {body[:200]!r}")
    return json.loads(body)
