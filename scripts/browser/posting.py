"""Posting: a status typed, checked (length, price), queued, pending, then sent once; a
reply from a mention's Reply link; a held status cancelled; hostile text shown back
as text; a status queued after cancelled ones goes out at once; a photo chosen,
described and queued with a time to send, shown on /outbox (and, where the daemon
and the emulator send photos, posted and shown on /home with its description).

Each check starts with no fault armed at the emulator and nothing pending in the
outbox (`Context.fresh_outbox`), and disarms its fault when done."""

import datetime
import hashlib
import os
import struct
import tempfile
import zlib

from .base import HOSTILE_TEXT, Failure, Skip, check, fetch, wait_until
from .page import (check_nothing_runs, click_to_next_page, load, open_from_header, path_of, query_of)

# INTERFACE.md, "The bill": a post costs $0.015, one with a URL $0.200, a reply to a
# post that mentions the account $0.010.
PRICE_POST, PRICE_URL, PRICE_SUMMONED = "$0.015", "$0.200", "$0.010"
# twitter-text counts every URL as 23 characters (t.co).
URL_WEIGHT = 23
STOPPED = ["failed", "expired", "cancelled"]


def compose_box(driver):
    return driver.find_element("css selector", 'form.compose[method=post][action="/compose"] textarea[name=text]')


def type_status(driver, text, replace=True):
    box = compose_box(driver)
    if replace:
        box.clear()
    box.send_keys(text)
    return box.get_attribute("value")


def press(driver, action):
    """Clicks Check or Queue; the status of the page it leads to."""
    button = driver.find_element("css selector", f'form.compose button[type=submit][name=action][value="{action}"]')
    return click_to_next_page(driver, button, f"the compose form's {action} to answer")


def check_result(driver):
    """What the check page says: weighted length, maximum, verdict and price."""
    section = driver.find_elements("css selector", "section.check")
    check(section, f"{driver.current_url}: no section.check after Check")

    def text(selector):
        return section[0].find_element("css selector", selector).get_attribute("textContent").strip()

    return {"weighted": int(text(".weighted")), "max": int(text(".max")), "verdict": text(".verdict"),
            "valid": "check-valid" in section[0].get_attribute("class").split(), "price": text(".price")}


def check_and_expect(driver, text, weighted, price, where):
    shown = type_status(driver, text)
    check(shown == text, f"{where}: the box holds {shown!r} after typing {text!r}")
    status = press(driver, "check")
    check(status == 200 and path_of(driver) == "/compose", f"{where}: Check answered {status} at {driver.current_url}")
    result = check_result(driver)
    check(result["valid"] and result["verdict"].startswith("Valid"), f"{where}: the check says {result['verdict']!r}")
    check(result["weighted"] == weighted and result["max"] == 280,
          f"{where}: the check counts {result['weighted']}/{result['max']}, expected {weighted}/280")
    check(result["price"] == price, f"{where}: the check prices it {result['price']}, expected {price}")
    box = compose_box(driver).get_attribute("value")
    check(box == text, f"{where}: the check page's box holds {box!r}, not the text typed")
    return result


def outbox_rows(driver):
    """The outbox page's rows, as the page shows them."""
    return driver.execute_script("""
        return Array.from(document.querySelectorAll('table.outbox tr.item[data-id]')).map(row => {
          const cell = name => row.querySelector('td.' + name);
          const textCell = cell('status-text');
          return {
            id: row.dataset.id,
            text: textCell.firstChild && textCell.firstChild.nodeType === Node.TEXT_NODE ? textCell.firstChild.nodeValue : '',
            replyTo: textCell.querySelector('.reply-to') ? textCell.querySelector('.reply-to').textContent : null,
            state: cell('state').textContent.trim(),
            attempts: cell('attempts').textContent.trim(),
            lastError: cell('last-error').textContent.trim(),
            expires: cell('expires').textContent.trim(),
            cost: cell('cost').textContent.trim(),
            sent: row.querySelector('a.sent') ? row.querySelector('a.sent').getAttribute('href') : null,
            cancel: !!row.querySelector('form[method=post][action="/outbox/' + row.dataset.id + '/cancel"] button'),
            kind: cell('kind') ? cell('kind').textContent.trim() : null,
            goesOut: cell('goes-out') ? cell('goes-out').textContent.trim() : '',
            goesOutAt: row.querySelector('td.goes-out time') ? row.querySelector('td.goes-out time').getAttribute('datetime') : null,
            photos: Array.from(row.querySelectorAll('ul.photos li.photo')).map(li => ({
              file: li.querySelector('.file').textContent, alt: li.querySelector('.alt').textContent,
              upload: li.querySelector('.upload').textContent})),
          };
        });""")


def outbox_row(driver, text):
    rows = [row for row in outbox_rows(driver) if row["text"] == text]
    check(len(rows) <= 1, f"/outbox lists {text!r} {len(rows)} times")
    return rows[0] if rows else None


def wait_for_state(driver, reader, text, states, seconds, refuse=()):
    """Reloads /outbox until the status `text` is in one of `states`; fails at once on one of `refuse`."""
    seen = []

    def probe():
        load(driver, reader.base + "outbox")
        row = outbox_row(driver, text)
        check(row is not None, f"/outbox does not list {text!r}")
        if not seen or seen[-1] != row["state"]:
            seen.append(row["state"])
        check(row["state"] not in refuse, f"/outbox: {text!r} went {' -> '.join(seen)} (never {'/'.join(states)})")
        return row if row["state"] in states else None

    try:
        return wait_until(f"/outbox to show {text!r} {'/'.join(states)}", seconds, probe)
    except Failure as failure:
        raise Failure(f"{failure} (seen: {' -> '.join(seen) or 'nothing'})")


def cancel_when_tried(driver, reader, text):
    """Waits until the status came back from the API (pending, tried once: it waits for
    the rate-limit window now), then clicks its Cancel button."""
    def tried():
        row = wait_for_state(driver, reader, text, ["pending"], 15, refuse=["sent"] + STOPPED)
        return row if row["attempts"] not in ("", "0") else None

    row = wait_until(f"{text!r} to be tried and left pending", 20, tried)
    check(row["cancel"], f"/outbox: the pending {text!r} has no Cancel button")
    check("429" in row["lastError"], f"/outbox: the pending status's last error is {row['lastError']!r}, not the 429")
    button = driver.find_element("css selector", f'form[method=post][action="/outbox/{row["id"]}/cancel"] button')
    status = click_to_next_page(driver, button, "Cancel to answer")
    check(status == 200 and path_of(driver) == "/outbox", f"Cancel led to {driver.current_url} ({status})")
    after = outbox_row(driver, text)
    check(after and after["state"] == "cancelled", f"/outbox after Cancel: {after}")
    check(not after["cancel"], "/outbox: a cancelled status still has a Cancel button")
    return row


def plain_text(ctx):
    return f"Hello from the browser test, {ctx.stamp}"


def check_prices(ctx):
    """Typed and checked from the header's compose link: a URL's price, then a plain status's."""
    driver = ctx.signed_in()
    open_from_header(driver, ctx.reader, "compose")
    check(compose_box(driver).get_attribute("value") == "", "/compose: the box does not start empty")
    head, tail = "Worth a read: ", f" (the browser test, {ctx.stamp})"
    check_and_expect(driver, f"{head}https://example.com/twfeed/{ctx.stamp}{tail}", len(head) + URL_WEIGHT + len(tail),
                     PRICE_URL, "a status with a URL")
    text = plain_text(ctx)
    result = check_and_expect(driver, text, len(text), PRICE_POST, "a status")
    return (f"typed and checked: {result['weighted']}/{result['max']} characters, {result['verdict']!r}, "
            f"costs {result['price']} ({PRICE_URL} with a URL)")


def queue_then_sent(ctx):
    """Queued while the emulator answers the first attempt with a 429 that ends in a few
    seconds: pending on /outbox, then sent on its own, held once."""
    reader, emulator, driver = ctx.reader, ctx.emulator, ctx.signed_in()
    ctx.fresh_outbox()
    open_from_header(driver, reader, "compose")
    text = plain_text(ctx)
    shown = type_status(driver, text)
    check(shown == text, f"the box holds {shown!r} after typing {text!r}")
    try:
        emulator.hold_next_post(6)
        status = press(driver, "queue")
        check(status == 200 and path_of(driver) == "/outbox", f"Queue led to {driver.current_url} ({status}), not /outbox")
        check_nothing_runs(driver, "/outbox")
        pending = wait_for_state(driver, reader, text, ["pending"], 15, refuse=["sent"] + STOPPED)
        check(pending["cancel"], "/outbox: a pending status has no Cancel button")
        check(pending["expires"], "/outbox: a pending status shows no expiry")
        sent = wait_for_state(driver, reader, text, ["sent"], 60, refuse=STOPPED)
    finally:
        emulator.clear_faults()
    check(sent["sent"], "/outbox: a sent status has no link to the post (a.sent)")
    check(sent["cost"] == PRICE_POST, f"/outbox: the sent status costs {sent['cost']!r}, expected {PRICE_POST}")
    check(not sent["cancel"], "/outbox: a sent status still has a Cancel button")
    held = emulator.posted_with_text(text)
    check(len(held) == 1, f"the emulator holds the status {len(held)} times, expected once")
    check(held[0].get("inReplyToId") is None, f"the emulator holds the status as a reply: {held[0]}")
    return (f"Queue led to /outbox: pending (attempts {pending['attempts']}, {pending['lastError'][:40]!r}), "
            f"then sent (attempts {sent['attempts']}, {sent['cost']}, {sent['sent']}); the emulator holds it once")


def reply(ctx):
    """From a mention's Reply link: the post shown above the box, the text starting with
    its author's @name, queued and sent as a reply to it."""
    reader, emulator, driver = ctx.reader, ctx.emulator, ctx.signed_in()
    ctx.fresh_outbox()
    open_from_header(driver, reader, "mentions")
    tweet = driver.find_element("css selector", "ol.timeline > li.tweet")
    tweet_id = tweet.get_attribute("data-id")
    username = tweet.find_element("css selector", ".username").get_attribute("textContent").strip().lstrip("@")
    link = tweet.find_element("css selector", "a.reply")
    check(link.get_attribute("href").endswith(f"/compose?reply_to={tweet_id}"),
          f"/mentions: the Reply link of {tweet_id} leads to {link.get_attribute('href')}")
    status = click_to_next_page(driver, link, "the Reply link to open /compose")
    check(status == 200 and path_of(driver) == "/compose" and query_of(driver).get("reply_to") == [tweet_id],
          f"the Reply link opened {driver.current_url} ({status})")
    check(driver.find_elements("css selector", f'section.replying li.tweet[data-id="{tweet_id}"]'),
          f"/compose?reply_to={tweet_id} does not show the post answered")
    hidden = driver.find_element("css selector", "form.compose input[name=reply_to]").get_attribute("value")
    check(hidden == tweet_id, f"/compose?reply_to={tweet_id}: the form's reply_to is {hidden!r}")
    start = compose_box(driver).get_attribute("value")
    check(start == f"@{username} ", f"the reply's box starts with {start!r}, not '@{username} '")
    text = type_status(driver, f"thanks, from the browser test {ctx.stamp}", replace=False)
    check(text == f"@{username} thanks, from the browser test {ctx.stamp}", f"the reply's box holds {text!r}")
    warned = bool(driver.find_elements("css selector", "p.warning"))
    price = PRICE_POST if warned else PRICE_SUMMONED
    status = press(driver, "check")
    check(status == 200, f"Check on the reply: status {status}")
    result = check_result(driver)
    check(result["valid"] and result["weighted"] == len(text) and result["price"] == price,
          f"the reply's check: {result}, expected {len(text)} characters at {price}")
    check(driver.find_elements("css selector", f'section.replying li.tweet[data-id="{tweet_id}"]'),
          "the reply's check page no longer shows the post answered")
    status = press(driver, "queue")
    check(status == 200 and path_of(driver) == "/outbox", f"Queue (reply) led to {driver.current_url} ({status})")
    row = wait_for_state(driver, reader, text, ["sent"], 60, refuse=STOPPED)
    check(row["replyTo"] and tweet_id in row["replyTo"], f"/outbox: the reply shows {row['replyTo']!r}, not {tweet_id}")
    held = emulator.posted_with_text(text)
    check(len(held) == 1 and held[0].get("inReplyToId") == tweet_id,
          f"the emulator holds the reply as {held}, expected once, in reply to {tweet_id}")
    return (f"replied to @{username}'s {tweet_id} from its Reply link (box started '@{username} ', "
            f"{'a warning, ' if warned else 'no warning, '}{price}); sent once, in reply to it")


def queue_held_and_cancel(ctx, driver, text, what):
    """Queues `text` while the emulator answers it with a 429 that ends in 15 minutes,
    then cancels it once tried; the row as it was pending."""
    ctx.emulator.hold_next_post(900)
    status = press(driver, "queue")
    check(status == 200 and path_of(driver) == "/outbox", f"Queue ({what}) led to {driver.current_url} ({status})")
    check_nothing_runs(driver, f"/outbox with {what}")
    check(outbox_row(driver, text), f"/outbox does not show {text!r} as text")
    row = cancel_when_tried(driver, ctx.reader, text)
    ctx.cancelled.append(text)
    return row


def cancel(ctx):
    """A status that cannot go out yet stays pending until Cancel; never sent."""
    driver = ctx.signed_in()
    ctx.fresh_outbox()
    try:
        open_from_header(driver, ctx.reader, "compose")
        text = f"Never mind, from the browser test {ctx.stamp}"
        type_status(driver, text)
        row = queue_held_and_cancel(ctx, driver, text, "the status to cancel")
    finally:
        ctx.emulator.clear_faults()
    return (f"a status held by a 429 stayed pending (attempts {row['attempts']}); "
            "Cancel made it cancelled, with no Cancel button left")


def hostile_text(ctx):
    """Hostile text typed into the box is shown back as text on the check page and on
    /outbox; it is then cancelled."""
    driver = ctx.signed_in()
    ctx.fresh_outbox()
    try:
        open_from_header(driver, ctx.reader, "compose")
        shown = type_status(driver, HOSTILE_TEXT)
        check(shown == HOSTILE_TEXT, f"the box holds {shown!r} after typing the hostile text")
        status = press(driver, "check")
        check(status == 200, f"Check on the hostile text: status {status}")
        check_nothing_runs(driver, "the check page of the hostile text")
        result = check_result(driver)
        check(result["valid"] and result["weighted"] == len(HOSTILE_TEXT) and result["price"] == PRICE_POST,
              f"the hostile text's check: {result}")
        box = compose_box(driver).get_attribute("value")
        check(box == HOSTILE_TEXT, f"the check page shows the hostile text back as {box!r}")
        queue_held_and_cancel(ctx, driver, HOSTILE_TEXT, "the hostile text")
        check_nothing_runs(driver, "/outbox with the hostile text, cancelled")
    finally:
        ctx.emulator.clear_faults()
    return "the hostile text typed into the box shows back as text on the check page and on /outbox; nothing ran; cancelled"


def after_cancellations(ctx):
    """The outbox sends oldest first and waits on a held head: a status queued after
    cancelled ones goes out only if they left the queue. Uses the statuses the checks
    before cancelled, or cancels one of its own."""
    reader, emulator, driver = ctx.reader, ctx.emulator, ctx.signed_in()
    ctx.fresh_outbox()
    if not ctx.cancelled:
        try:
            open_from_header(driver, reader, "compose")
            text = f"Cancelled first, from the browser test {ctx.stamp}"
            type_status(driver, text)
            queue_held_and_cancel(ctx, driver, text, "a status to cancel first")
        finally:
            emulator.clear_faults()
    after = f"After the cancellations, from the browser test {ctx.stamp}"
    open_from_header(driver, reader, "compose")
    type_status(driver, after)
    press(driver, "queue")
    wait_for_state(driver, reader, after, ["sent"], 60, refuse=STOPPED)
    emulator.check_never_posted(ctx.cancelled, "cancelled")
    return (f"a status queued after {len(ctx.cancelled)} cancelled one(s) went out at once; "
            "the emulator never got the cancelled ones")


def small_png(width=3, height=2):
    """A PNG of `width` × `height` red pixels, written by hand (no imaging library)."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    rows = b"".join(b"\x00" + b"\xff\x00\x00" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def choose_photo(ctx, driver, part, slot, alt):
    """Writes a small PNG to a temp file, chooses it in the part's photo slot and types
    its description; the file's name and bytes."""
    folder = tempfile.mkdtemp(prefix="twfeed-photo-", dir=ctx.work)
    name = f"dot-{ctx.stamp.replace(':', '')}.png"
    path = os.path.join(folder, name)
    data = small_png()
    with open(path, "wb") as out:
        out.write(data)
    driver.find_element("css selector", f"form.compose input[type=file][name=photo_{part}_{slot}]").send_keys(path)
    box = driver.find_element("css selector", f"form.compose input[name=alt_{part}_{slot}]")
    box.clear()
    box.send_keys(alt)
    return name, data


def compose_with_photo(ctx, driver, text, alt):
    """An empty outbox, then /compose from the header with `text` typed and a photo
    chosen in part 1's first slot with `alt`; the photo's file name and bytes."""
    ctx.fresh_outbox()
    open_from_header(driver, ctx.reader, "compose")
    type_status(driver, text)
    return choose_photo(ctx, driver, 1, 1, alt)


def photo_queued(ctx):
    """A photo chosen and described, with a time to send an hour ahead (typed without an
    offset: the reader reads it in this machine's zone), queued: /outbox shows the post,
    the photo's file name, description and upload state, and when it goes out; then it
    is cancelled. The emulator holds the post endpoint meanwhile, so a daemon that did
    not keep the time could not send it either."""
    reader, driver = ctx.reader, ctx.signed_in()
    text = f"A photo from the browser test {ctx.stamp}"
    alt = f"A red dot, described by the browser test {ctx.stamp}"
    name, _ = compose_with_photo(ctx, driver, text, alt)
    when = (datetime.datetime.now() + datetime.timedelta(hours=1)).replace(second=0, microsecond=0)
    field = driver.find_element("css selector", "form.compose input[type=datetime-local][name=at]")
    # A datetime-local's typing order follows the locale: its value is set as a form fill would.
    driver.execute_script("arguments[0].value = arguments[1]", field, when.strftime("%Y-%m-%dT%H:%M"))
    expected = when.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    try:
        ctx.emulator.hold_next_post(900)
        status = press(driver, "queue")
        check(status == 200 and path_of(driver) == "/outbox", f"Queue (a photo) led to {driver.current_url} ({status})")
        check_nothing_runs(driver, "/outbox with a photo")
        # A daemon that keeps the time leaves it pending untried; one that does not tries
        # it, gets the 429, and leaves it pending too.
        row = wait_for_state(driver, reader, text, ["pending"], 15, refuse=["sent"] + STOPPED)
        check(row["kind"] == "post", f"/outbox: the photo's post is of kind {row['kind']!r}")
        check(len(row["photos"]) == 1, f"/outbox: the post shows {len(row['photos'])} photos: {row['photos']}")
        photo = row["photos"][0]
        check(photo["file"] == name and photo["alt"] == alt, f"/outbox: the photo shows as {photo}, not {name!r} with {alt!r}")
        check(photo["upload"] in ("not uploaded yet", "uploaded", "uploaded and described"), f"/outbox: upload {photo['upload']!r}")
        check(row["goesOut"].startswith("goes out at") and row["goesOutAt"] == expected,
              f"/outbox: {row['goesOut']!r} ({row['goesOutAt']}), expected goes out at {expected}")
        button = driver.find_element("css selector", f'form[method=post][action="/outbox/{row["id"]}/cancel"] button')
        status = click_to_next_page(driver, button, "Cancel to answer")
        after = outbox_row(driver, text)
        check(status == 200 and after and after["state"] == "cancelled", f"/outbox after Cancel: {after}")
    finally:
        ctx.emulator.clear_faults()
    ctx.emulator.check_never_posted([text], "cancelled photo")
    return (f"{name} ({len(small_png())} bytes) chosen and described, queued to go out at {expected}: /outbox shows "
            f"the post, {photo['file']!r} with its description ({photo['upload']}) and {row['goesOut']!r}; cancelled, never sent")


def photo_posted(ctx):
    """A photo chosen, described and queued to go now: sent, then on /home with its
    description as alt text and its bytes as chosen. Needs the daemon's photo sending
    and the emulator's media endpoints (`GET /_emulator/posted`): skipped while the
    emulator has no upload; it fails while the daemon sends a post without its photo."""
    reader, emulator, driver = ctx.reader, ctx.emulator, ctx.signed_in()
    status, _, _ = fetch(f"{emulator.base}/2/media/upload", data=b"", method="POST")
    if status == 404:
        raise Skip("the emulator has no POST /2/media/upload yet")
    text = f"A photo posted by the browser test {ctx.stamp}"
    alt = f"A red dot on the timeline, {ctx.stamp}"
    name, data = compose_with_photo(ctx, driver, text, alt)
    status = press(driver, "queue")
    check(status == 200 and path_of(driver) == "/outbox", f"Queue (a photo to post) led to {driver.current_url} ({status})")
    sent = wait_for_state(driver, reader, text, ["sent"], 90, refuse=STOPPED)
    check(sent["photos"] and sent["photos"][0]["upload"] == "uploaded and described", f"/outbox: the sent photo is {sent['photos']}")
    posted = emulator.control("posted")
    held = [post for post in posted.get("posts", []) if post.get("text") == text]
    check(len(held) == 1, f"the emulator holds the photo's post {len(held)} times, expected once")
    photos = held[0].get("photos") or []
    digest = hashlib.sha256(data).hexdigest()
    check(len(photos) == 1 and photos[0].get("sha256") == digest and photos[0].get("altText") == alt,
          f"the emulator holds the post's photos as {photos}, expected the chosen bytes ({digest[:12]}…) with {alt!r}")
    check(posted.get("uploadCounts", {}).get(digest) == 1, f"the photo was uploaded {posted.get('uploadCounts', {}).get(digest)} times")

    def on_home():
        load(driver, reader.base + "home")
        images = driver.execute_script("""
            return Array.from(document.querySelectorAll('ol.timeline > li.tweet')).filter(li => {
                const t = li.querySelector('p.text'); return t && t.textContent === arguments[0]; })
              .flatMap(li => Array.from(li.querySelectorAll('.media img')).map(i => ({src: i.getAttribute('src'), alt: i.alt,
                 loaded: i.naturalWidth})));""", text)
        return images if images and all(image["loaded"] for image in images) else None

    images = wait_until(f"/home to show {text!r} with its photo", 90, on_home)
    check(len(images) == 1 and images[0]["alt"] == alt, f"/home shows the post's photos as {images}, expected one with {alt!r}")
    status, _, body = reader.fetch(images[0]["src"].lstrip("/"))
    check(status == 200 and body == data, f"{images[0]['src']}: status {status}, {len(body)} bytes, not the {len(data)} chosen")
    return f"{name} posted once with its description; /home shows it with alt {alt!r}, the bytes as chosen ({len(data)})"


CHECKS = [
    ("check-prices", check_prices),
    ("queue-then-sent", queue_then_sent),
    ("reply", reply),
    ("cancel", cancel),
    ("hostile-text", hostile_text),
    ("after-cancellations", after_cancellations),
    ("photo-queued", photo_queued),
    ("photo-posted", photo_posted),
]
