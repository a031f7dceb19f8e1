"""Security: a Content-Security-Policy that forbids script on every answer, and forms
refused without their token or from another origin (by a script, and by another
site's page in the signed-in browser)."""

import http.server
import threading
import time

from .base import SESSION_COOKIE, check, wait_until
from .clients import form_token
from .page import load, navigation_status


def csp(ctx):
    """Every answer forbids inline script: script-src 'none', or default-src 'none' with no script-src."""
    reader = ctx.reader
    answers = [(path, *reader.fetch(path)[:2]) for path in [
        "home", "search?q=onerror", "compose", "outbox", "feeds/home.atom", "api/feed/home?limit=1",
        "avatars/none.png", "no-such-page"]]
    answers += [(f"{path} (no session)", *reader.fetch(path, bearer=False)[:2]) for path in ["home", "login"]]
    status, headers, _ = reader.fetch("compose", data=b"text=x&action=check", method="POST",
                                      content_type="application/x-www-form-urlencoded",
                                      headers={"Origin": reader.origin})
    answers.append(("compose (POST without a form token)", status, headers))
    for path, status, headers in answers:
        policy = headers.get("Content-Security-Policy")
        check(policy, f"/{path} ({status}) has no Content-Security-Policy header")
        directives = {}
        for part in policy.split(";"):
            words = part.split()
            if words:
                directives[words[0].lower()] = [word.lower() for word in words[1:]]
        check("'unsafe-inline'" not in policy and "'unsafe-eval'" not in policy,
              f"/{path}: the Content-Security-Policy relaxes script: {policy}")
        if "script-src" in directives:
            check(directives["script-src"] == ["'none'"], f"/{path}: script-src is not 'none': {policy}")
        else:
            check(directives.get("default-src") == ["'none'"],
                  f"/{path}: neither script-src 'none' nor default-src 'none': {policy}")
    return f"every answer's Content-Security-Policy forbids script ({len(answers)} answers, 401 and 403 included)"


def forms_refused(ctx):
    """A script with the bearer posts like a page of the reader, or not at all: a form
    without its token, with another Origin, or with no Origin or Referer is refused
    (403) and queues nothing."""
    reader = ctx.reader
    status, _, body = reader.fetch("compose")
    check(status == 200, f"/compose with the bearer: status {status}")
    token = form_token(body)
    text = f"Forged by a script {ctx.stamp}"
    cases = [
        ("without a form token", {"text": text, "action": "queue"}, {"Origin": reader.origin}),
        ("with a wrong form token", {"text": text, "action": "queue", "csrf": token[::-1]}, {"Origin": reader.origin}),
        ("from another Origin", {"text": text, "action": "queue", "csrf": token}, {"Origin": "http://127.0.0.1:9"}),
        ("from another Referer", {"text": text, "action": "queue", "csrf": token},
         {"Referer": "http://localhost:9/compose"}),
        ("with neither Origin nor Referer", {"text": text, "action": "queue", "csrf": token}, {}),
    ]
    for what, fields, headers in cases:
        status = reader.post_form("compose", fields, headers)
        check(status == 403, f"POST /compose {what}: status {status}, expected 403")
    status = reader.post_form("compose", {"text": text, "action": "check", "csrf": token}, {"Origin": reader.origin})
    check(status == 200, f"POST /compose (check) with the bearer's form token and the reader's Origin: status {status}")
    status, _, body = reader.fetch("outbox")
    check(status == 200 and text.encode() not in body, "a refused POST /compose queued its status")
    return ("POST /compose without the form token, with a wrong one, from another Origin or Referer, or with neither "
            "is refused (403) and queues nothing; with the token and the reader's Origin it works")


class ForgingSite:
    """Another origin's web server, on another loopback port: its pages post a form to
    the reader's /compose by script as soon as they load, as a hostile page the owner
    visits would."""

    def __init__(self, reader, text):
        action = reader.base + "compose"
        pages = {
            # A guessed token: the same site (127.0.0.1), so the SameSite cookie goes along.
            "/guessed-token.html": {"text": text, "action": "queue", "csrf": "0" * 64},
            "/no-token.html": {"text": text, "action": "queue"},
        }

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                fields = pages.get(self.path)
                if fields is None:
                    self.send_error(404)
                    return
                inputs = "".join(f'<input type="hidden" name="{name}" value="{value}">' for name, value in fields.items())
                body = (f'<!DOCTYPE html><html><head><title>a page elsewhere</title></head><body>'
                        f'<form id="forged" method="post" action="{action}">{inputs}</form>'
                        f'<script>document.getElementById("forged").submit()</script></body></html>').encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def forged_forms(ctx):
    """Pages of another origin that post to /compose by script, in the signed-in browser:
    refused, and nothing queued."""
    from .posting import outbox_row

    reader, emulator, driver = ctx.reader, ctx.emulator, ctx.signed_in()
    text = f"Posted by another site's page {ctx.stamp}"
    site = ForgingSite(reader, text)
    answers = []
    try:
        for host, page, allowed in [("127.0.0.1", "guessed-token.html", (403,)),
                                    ("127.0.0.1", "no-token.html", (403,)),
                                    ("localhost", "no-token.html", (401, 403))]:
            url = f"http://{host}:{site.port}/{page}"
            driver.get(url)
            wait_until(f"{url} to post its form to the reader", 30,
                       lambda: driver.current_url.startswith(reader.base + "compose")
                       and driver.execute_script("return document.readyState") == "complete")
            status = navigation_status(driver)
            check(status in allowed, f"a form posted by {url}: status {status}, expected {' or '.join(map(str, allowed))}")
            check(driver.get_cookie(SESSION_COOKIE), f"after {url}'s form the browser lost its session")
            answers.append(f"{host}:{site.port}/{page} -> {status}")
    finally:
        site.close()
    load(driver, reader.base + "outbox")
    check(navigation_status(driver) == 200, "/outbox after the forged forms: not 200")
    check(outbox_row(driver, text) is None, f"a forged form queued {text!r}")
    time.sleep(2)
    emulator.check_never_posted([text], "forged")
    return (f"forms another origin's pages post by script are refused ({'; '.join(answers)}); "
            "nothing queued, nothing sent")


CHECKS = [
    ("csp", csp),
    ("forms-refused", forms_refused),
    ("forged-forms", forged_forms),
]
