"""Feeds: /feeds/home.atom, by its key, is Atom 1.0 with the hostile posts as text."""

import html.parser
import re
import xml.etree.ElementTree as ET

from .base import (HOSTILE_NAME, HOSTILE_TEXT, PAGE_SIZE, QUOTED_NAME, QUOTED_TEXT, REPOSTED_NAME, REPOSTED_TEXT,
                   Failure, check, fetch)

ATOM = "{http://www.w3.org/2005/Atom}"
RFC3339 = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$")


class TextOfHTML(html.parser.HTMLParser):
    """The text an HTML fragment shows, and the elements it would create."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.text = []
        self.tags = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)

    def handle_data(self, data):
        self.text.append(data)


def atom_shown(entry, where):
    """What an Atom entry's content shows, checked to make no element."""
    content = entry.find(ATOM + "content")
    if content is None:
        return entry.findtext(ATOM + "title") or "", "title"
    if content.get("type") == "html":
        fragment = TextOfHTML()
        fragment.feed(content.text or "")
        fragment.close()
        check("script" not in fragment.tags and "img" not in fragment.tags and "b" not in fragment.tags,
              f"{where}: the HTML content makes elements {fragment.tags}: {content.text!r}")
        return "".join(fragment.text), "html content"
    check(content.get("type") in (None, "text"), f"{where}: content type {content.get('type')!r}")
    return content.text or "", "text content"


def atom(ctx):
    hostile = ctx.hostile()
    hostile_id, quote, repost = hostile["id"], hostile["quote"], hostile["repost"]
    status, headers, body = fetch(ctx.atom_keys()["home"])
    check(status == 200, f"/feeds/home.atom: status {status}")
    check("xml" in headers.get("Content-Type", ""),
          f"/feeds/home.atom: Content-Type {headers.get('Content-Type')!r}, not Atom/XML")
    try:
        root = ET.fromstring(body)
    except ET.ParseError as error:
        raise Failure(f"/feeds/home.atom is not well-formed XML: {error}")
    check(root.tag == ATOM + "feed", f"/feeds/home.atom: the root is {root.tag}, not an Atom feed")
    for name in ["id", "title", "updated"]:
        check((root.findtext(ATOM + name) or "").strip(), f"/feeds/home.atom: the feed has no <{name}>")
    check(RFC3339.match(root.findtext(ATOM + "updated").strip()), "/feeds/home.atom: the feed's <updated> is not RFC 3339")
    entries = root.findall(ATOM + "entry")
    check(len(entries) == PAGE_SIZE, f"/feeds/home.atom: {len(entries)} entries, expected {PAGE_SIZE}")
    ids = set()
    named = {}
    for entry in entries:
        entry_id = (entry.findtext(ATOM + "id") or "").strip()
        check(entry_id.startswith("tag:"), f"/feeds/home.atom: an entry's id is not a tag: URI: {entry_id!r}")
        check(entry_id not in ids, f"/feeds/home.atom: the id {entry_id} appears twice")
        ids.add(entry_id)
        check(RFC3339.match((entry.findtext(ATOM + "updated") or "").strip()),
              f"/feeds/home.atom: {entry_id} has no RFC 3339 <updated>")
        check((entry.findtext(ATOM + "author/" + ATOM + "name") or "").strip(),
              f"/feeds/home.atom: {entry_id} has no <author><name>")
        check(entry.find(ATOM + "content") is not None or entry.find(ATOM + "title") is not None,
              f"/feeds/home.atom: {entry_id} has neither <content> nor <title>")
        for tweet_id in [hostile_id, quote["id"], repost["id"]]:
            if re.search(rf"\b{tweet_id}\b", entry_id):
                named[tweet_id] = entry
    # The hostile tweet; the quote, its quoted post in it; the repost, as its original by its author.
    for tweet_id, what, texts, name in [(hostile_id, "the hostile tweet", [HOSTILE_TEXT], HOSTILE_NAME),
                                        (quote["id"], "the quote", [QUOTED_NAME, QUOTED_TEXT], None),
                                        (repost["id"], "the repost", [REPOSTED_TEXT], REPOSTED_NAME)]:
        entry = named.get(tweet_id)
        check(entry is not None, f"/feeds/home.atom: no entry whose id names {what} {tweet_id}")
        author = entry.findtext(ATOM + "author/" + ATOM + "name")
        check(name is None or name in author,
              f"/feeds/home.atom: {what}'s author name {author!r} does not show {name!r} as text")
        shown, kind = atom_shown(entry, f"/feeds/home.atom: {what}")
        for text in texts:
            check(text in shown, f"/feeds/home.atom: {what}'s {kind} does not show {text!r} as text: {shown!r}")
    return (f"/feeds/home.atom (by its key) is Atom 1.0 with {len(entries)} entries; the hostile tweet, the quoted post "
            "in its quote and the reposted original (by its author) are text in it")


CHECKS = [
    ("atom", atom),
]
