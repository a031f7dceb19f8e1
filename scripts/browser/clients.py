"""The reader and the emulator as scripts reach them, without the browser."""

import re
import time
import urllib.parse

from .base import PAGE_SIZE, check, fetch, fetch_json, wait_until

FORM = "application/x-www-form-urlencoded"


def form_token(body):
    match = re.search(rb'<input type="hidden" name="csrf" value="([^"]+)">', body)
    check(match, "the page has no hidden csrf input")
    return match.group(1).decode()


class Reader:
    """The reader's address, and the secret a script signs in with."""

    def __init__(self, origin, secret):
        self.origin = origin  # http://127.0.0.1:PORT
        self.base = origin + "/"
        self.secret = secret

    def fetch(self, path, bearer=True, **options):
        return fetch(self.base + path, bearer=self.secret if bearer else None, **options)

    def json(self, path):
        return fetch_json(self.base + path, bearer=self.secret)

    def post_form(self, path, fields, headers):
        """POST a form with the bearer; the status."""
        return self.fetch(path, data=urllib.parse.urlencode(fields).encode(), method="POST", content_type=FORM,
                          headers=headers)[0]

    def stored_in_home(self, ids, what, seconds=60):
        """Waits until /api/feed/home's first page holds every id; those items by id."""
        def probe():
            items = {item.get("id"): item for item in self.json(f"api/feed/home?limit={PAGE_SIZE}")}
            return {id: items[id] for id in ids} if all(id in items for id in ids) else None

        return wait_until(f"the daemon to store {what} (/api/feed/home)", seconds, probe)

    def cancel_pending(self):
        """Cancels every status /outbox still offers to cancel (what an earlier check left
        pending would hold the queue's head); how many."""
        status, _, body = self.fetch("outbox")
        check(status == 200, f"/outbox with the bearer: status {status}")
        forms = re.findall(rb'action="/outbox/(\d+)/cancel"><input type="hidden" name="csrf" value="([^"]+)"', body)
        for status_id, token in forms:
            answer = self.post_form(f"outbox/{status_id.decode()}/cancel", {"csrf": token.decode()},
                                    {"Origin": self.origin})
            check(answer in (200, 303), f"cancelling the leftover status {status_id.decode()}: status {answer}")
        return len(forms)


class Emulator:
    """The emulator's control routes (docs/EMULATOR.md)."""

    def __init__(self, base, dialect):
        self.base = base
        # What a fault's `path` must contain to hit the post endpoint, and it alone.
        self.post_path = "/2/tweets" if dialect == "v2" else "statuses/update"

    def control(self, route, payload=None, method=None):
        return fetch_json(f"{self.base}/_emulator/{route}", payload, method=method)

    def posted(self):
        """The statuses the emulator was sent, as it stored them."""
        return self.control("stats")["posted"]

    def posted_with_text(self, text):
        return [status for status in self.posted() if status.get("text") == text]

    def check_never_posted(self, texts, what):
        for text in texts:
            check(not self.posted_with_text(text), f"the emulator got the {what} status {text!r}")

    def hold_next_post(self, seconds):
        """The next post gets a 429 whose reset is `seconds` away: the outbox keeps it
        pending that long, then sends it."""
        self.control("faults", {"fault": "429-bad-header", "header": "reset", "times": 1, "path": self.post_path,
                                "value": str(int(time.time()) + seconds)})

    def clear_faults(self):
        self.control("faults", method="DELETE")

    def reply_chain(self, depth):
        """A conversation of `depth` posts in no timeline, answered by a new post at the top
        of home: {"id", "ancestors": [parent, ..., root]}."""
        chain = self.control("reply-chain", {"feed": "home", "depth": depth})
        check(len(chain.get("ancestors", [])) == depth, f"the emulator's reply chain: {chain}")
        return chain

    def tweet(self, text, author_name):
        """A tweet with `text` by `author_name` at the top of home: {"id", "username"}."""
        made = self.control("tweets", {"feed": "home", "text": text, "authorName": author_name})
        check(made.get("username"), f"the emulator named no author for the tweet: {made}")
        return made

    def referenced(self, text, author_name, via):
        """A post with `text` by `author_name` in no timeline, and a followed account's
        quote or repost of it at the top of home: {"id", "username", "original",
        "originalUsername"}."""
        made = self.control("tweets", {"feed": "home", "text": text, "authorName": author_name, "via": via})
        check(made.get("original") and made.get("originalUsername") and made.get("username"),
              f"the emulator's {via} of a given text: {made}")
        return made
