"""Access: what answers without a session, the sign-in link, Atom keys, signing in and out."""

import re
import urllib.parse

from .base import FEEDS, SESSION_COOKIE, check, fetch
from .page import load, navigation_status, path_of, click_to_next_page


def locked(ctx):
    """Without a session only /healthz, /static/, /login and (from loopback) /metrics
    open; the bearer opens everything."""
    reader = ctx.reader
    for path in ["", "home", "mentions", "retweets", "search?q=onerror", "compose", "outbox", "api/feed/home?limit=1",
                 "avatars/none.png", "feeds/home.atom"]:
        status, headers, body = reader.fetch(path, bearer=False)
        check(status == 401, f"/{path} without a session: status {status}, expected 401")
        if path != "feeds/home.atom":
            check(b"twfeed open" in body, f"/{path} without a session: the 401 page does not say to run twfeed open")
    for path in ["healthz", "static/style.css", "metrics"]:
        status, _, _ = reader.fetch(path, bearer=False)
        check(status == 200, f"/{path} without a session (from loopback): status {status}, expected 200")
    status, _, _ = fetch(reader.base + "home", bearer="0" * 64)
    check(status == 401, f"/home with a wrong bearer: status {status}, expected 401")
    for path in ["home", "compose", "outbox", "api/feed/home?limit=1"]:
        status, _, body = reader.fetch(path)
        check(status == 200, f"/{path} with the bearer: status {status}: {body[:200]!r}")
    return ("without a session every page, picture, API and feed answers 401 saying to run twfeed open; "
            "/healthz, /static/ and loopback /metrics stay open; the bearer opens the rest")


def sign_in_link_once(ctx):
    """The demo's own link: taken once (303 to /home with the cookie), refused after; a
    wrong token refused."""
    demo_link = ctx.login
    status, headers, _ = fetch(demo_link, follow=False)
    check(status == 303 and headers.get("Location") == "/home",
          f"the demo's sign-in link: status {status}, Location {headers.get('Location')!r}, expected 303 to /home")
    cookie = headers.get("Set-Cookie") or ""
    attributes = {part.strip().split("=")[0].lower() for part in cookie.split(";")}
    check(cookie.startswith(SESSION_COOKIE + "=") and {"httponly", "path"} <= attributes
          and re.search(r";\s*SameSite=Strict\b", cookie, re.I),
          f"the sign-in link's Set-Cookie is not an HttpOnly, SameSite=Strict {SESSION_COOKIE}: {cookie!r}")
    status, _, _ = fetch(demo_link, follow=False)
    check(status == 401, f"the demo's sign-in link, used again: status {status}, expected 401")
    forged = re.sub(r"token=[^&]*", "token=" + urllib.parse.quote(demo_link.split("token=")[1][::-1]), demo_link)
    status, _, _ = fetch(forged, follow=False)
    check(status == 401, f"a wrong sign-in token: status {status}, expected 401")
    return ("a sign-in link gives an HttpOnly, SameSite=Strict session cookie and a 303 to /home, once; "
            "used again, or wrong, it is refused (401)")


def atom_keys(ctx):
    """Each feed's key from `twfeed open --feeds` opens that feed, and nothing else."""
    reader = ctx.reader
    for feed, url in ctx.atom_keys().items():
        status, _, _ = fetch(url)
        check(status == 200, f"{url}: status {status}, expected 200")
        key = urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)["key"][0]
        for other in FEEDS:
            if other != feed:
                status, _, _ = reader.fetch(f"feeds/{other}.atom?key={key}", bearer=False)
                check(status == 401, f"/feeds/{other}.atom with {feed}'s key: status {status}, expected 401")
        for path in [f"{feed}?key={key}", f"api/feed/{feed}?key={key}"]:
            status, _, _ = reader.fetch(path, bearer=False)
            check(status == 401, f"/{path.split('?')[0]} with {feed}'s Atom key: status {status}, expected 401")
    status, _, _ = reader.fetch("feeds/home.atom?key=" + "0" * 64, bearer=False)
    check(status == 401, f"/feeds/home.atom with a wrong key: status {status}, expected 401")
    return "each Atom key from twfeed open --feeds opens its feed (200) and is refused (401) for the other feeds and pages"


def browser_sign_in(ctx):
    """A browser without cookies opens `twfeed open`'s link: a session cookie, /home, no
    token left in the address bar."""
    reader, driver = ctx.reader, ctx.browser()
    link = ctx.open_link()[0]
    check(link.startswith(reader.base + "login?token="), f"twfeed open printed {link}, not a link to {reader.base}")
    driver.delete_all_cookies()
    load(driver, link)
    url = urllib.parse.urlsplit(driver.current_url)
    check(url.path == "/home" and "token" not in driver.current_url,
          f"after the sign-in link the address bar holds {driver.current_url}, not /home without the token")
    check(navigation_status(driver) == 200, f"/home after signing in: status {navigation_status(driver)}")
    cookie = driver.get_cookie(SESSION_COOKIE)
    check(cookie, f"signing in left no {SESSION_COOKIE} cookie")
    check(cookie.get("httpOnly") is True and cookie.get("sameSite") == "Strict",
          f"the session cookie is not HttpOnly and SameSite=Strict: {cookie}")
    check(driver.execute_script("return document.cookie") == "", "the session cookie is visible to a page's script")
    account = driver.find_element("css selector", "header span.account").text.strip()
    check(re.fullmatch(r"@\w+", account), f"the header names the account {account!r}, not @username")
    status, _, _ = fetch(link, follow=False)
    check(status == 401, f"twfeed open's link, used again: status {status}, expected 401")
    status, _, body = reader.fetch("home", bearer=False)
    check(status == 401 and b"twfeed open" in body, f"/home without the cookie: status {status}, expected 401")
    return (f"signed in through twfeed open's link: at /home as {account}, no token in the address bar, "
            "an HttpOnly SameSite=Strict cookie; the link is spent and /home without the cookie is 401")


def sign_out(ctx):
    """Sign out in the header ends the session (a check run after it signs in again)."""
    reader, driver = ctx.reader, ctx.signed_in()
    load(driver, reader.base + "home")
    button = driver.find_element("css selector", 'header form.signout[method=post][action="/signout"] button')
    status = click_to_next_page(driver, button, "Sign out to answer")
    check(path_of(driver) == "/login" and status == 401, f"Sign out led to {driver.current_url} ({status})")
    check(driver.get_cookie(SESSION_COOKIE) is None, "Sign out left the session cookie")
    load(driver, reader.base + "home")
    status = navigation_status(driver)
    text = driver.find_element("css selector", "body").text
    check(status == 401 and "twfeed open" in text, f"/home after signing out: status {status}")
    return "Sign out ends the session: /home then answers 401 with how to sign in (twfeed open)"


CHECKS = [
    ("locked", locked),
    ("sign-in-link", sign_in_link_once),
    ("atom-keys", atom_keys),
    ("browser-sign-in", browser_sign_in),
]
# Run after every concern's CHECKS: the others need not sign in again.
FINAL_CHECKS = [
    ("sign-out", sign_out),
]
