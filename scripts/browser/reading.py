"""Reading: /home and its header, avatars, hostile text shown as text, reposts and
quotes, paging and search."""

import urllib.parse

from .base import (FEEDS, HOSTILE_NAME, HOSTILE_TEXT, IMAGE_MAGIC, PAGE_SIZE, QUOTED_NAME, QUOTED_TEXT, REPOSTED_NAME,
                   REPOSTED_TEXT, check, fetch, wait_until)
from .page import (check_avatars_loaded, check_nothing_runs, click, load, path_of, query_of, ready, shown,
                   tweet_ids)


def stored_exactly(ctx):
    """/api/feed/home gives back the hostile tweet, the quote's quoted post and the
    repost's original exactly as the emulator was given them."""
    hostile = ctx.hostile()
    quote, repost = hostile["quote"], hostile["repost"]
    items = ctx.reader.stored_in_home([hostile["id"], quote["id"], repost["id"]], "the hostile tweet, quote and repost")
    item = items[hostile["id"]]
    check(item.get("text") == HOSTILE_TEXT, f"/api/feed/home: the hostile tweet's text is {item.get('text')!r}")
    check((item.get("author") or {}).get("name") == HOSTILE_NAME,
          f"/api/feed/home: the author's name is {(item.get('author') or {}).get('name')!r}")
    for what, item, key, text, name in [("quoted", items[quote["id"]], "quoted", QUOTED_TEXT, QUOTED_NAME),
                                        ("reposted", items[repost["id"]], "retweetOf", REPOSTED_TEXT, REPOSTED_NAME)]:
        original = item.get(key) or {}
        check(original.get("text") == text and (original.get("author") or {}).get("name") == name,
              f"/api/feed/home: the {what} post's {key} is {original}")
    return (f"the daemon stored the hostile tweet {hostile['id']}, the quote {quote['id']} of a hostile post and the "
            f"repost {repost['id']} of one; /api/feed/home gives them back exactly")


def home(ctx):
    driver = ctx.signed_in()
    load(driver, ctx.reader.base + "home")
    ids = tweet_ids(driver)
    check(len(ids) == PAGE_SIZE, f"/home lists {len(ids)} tweets (li.tweet), expected {PAGE_SIZE}")
    check(ids == sorted(ids, reverse=True) and len(set(ids)) == len(ids), "/home: tweets not newest first, once each")
    for path in FEEDS + ["compose", "outbox"]:
        links = driver.find_elements("css selector", f'header a[href="/{path}"]')
        check(links, f"/home: the header has no link to /{path}")
    for selector in ["header .health", "header p.spend", "header form.signout button"]:
        check(driver.find_elements("css selector", selector), f"/home: the header has no {selector}")
    return (f"/home lists {len(ids)} tweets; the header links every feed, compose and outbox, and shows health, "
            "spend and Sign out")


def check_avatars(driver, reader, where):
    """Every img.avatar loaded (lazy ones once scrolled to), from the reader's own origin."""
    origin = urllib.parse.urlsplit(reader.base)
    images = driver.find_elements("css selector", "ol.timeline > li.tweet img.avatar")
    tweets = len(driver.find_elements("css selector", "ol.timeline > li.tweet"))
    check(len(images) == tweets, f"{where}: {len(images)} avatars (img.avatar) for {tweets} tweets")
    sources = [image.get_attribute("src") for image in images]
    for source in sources:
        url = urllib.parse.urlsplit(source)
        check((url.scheme, url.netloc) == (origin.scheme, origin.netloc),
              f"{where}: an avatar comes from {url.scheme}://{url.netloc}, not the reader's own origin: {source}")
        check(url.path.startswith("/avatars/") or url.path.startswith("/static/"),
              f"{where}: an avatar is not under /avatars/ or /static/: {source}")
    for image in images:  # `loading=lazy` pictures load once near the viewport
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", image)
    driver.execute_script("window.scrollTo(0, 0)")
    check_avatars_loaded(driver, where)
    cached = [source for source in sources if "/avatars/" in source]
    return len(sources), cached


def check_avatar_file(reader, cached):
    """One cached avatar straight from /avatars/: an image type that matches its bytes."""
    status, headers, body = fetch(cached, bearer=reader.secret)
    check(status == 200, f"{cached}: status {status}")
    kind = headers.get("Content-Type", "")
    check(kind in IMAGE_MAGIC, f"{cached}: Content-Type {kind!r} is not an image type")
    check(body.startswith(IMAGE_MAGIC[kind]), f"{cached}: served as {kind} but its bytes are not")
    status, _, _ = fetch(cached)
    check(status == 401, f"{cached} without a session: status {status}, expected 401")
    status, _, _ = reader.fetch("avatars/..%2f..%2fconfig.json")
    check(status in (400, 403, 404), f"/avatars/..%2f..%2fconfig.json: status {status}, expected a refusal")


def avatars(ctx):
    driver = ctx.signed_in()
    load(driver, ctx.reader.base + "home")
    count, cached = check_avatars(driver, ctx.reader, "/home")
    check(cached, "/home: every avatar is the placeholder; none came from the image cache")
    check_avatar_file(ctx.reader, cached[0])
    return f"all {count} avatars loaded from the reader ({len(cached)} cached pictures, {count - len(cached)} placeholders)"


def hostile_as_text(ctx):
    hostile_id, driver = ctx.hostile()["id"], ctx.signed_in()
    load(driver, ctx.reader.base + "home")
    check(int(hostile_id) in tweet_ids(driver), f"/home: the hostile tweet {hostile_id} is not on the first page")
    item = driver.find_element("css selector", f'li.tweet[data-id="{hostile_id}"]')
    text = item.find_element("css selector", "p.text").get_attribute("textContent")
    check(text == HOSTILE_TEXT, f"/home: the hostile tweet shows {text!r}, not its text as text")
    name = item.find_element("css selector", ".name").get_attribute("textContent")
    check(name == HOSTILE_NAME, f"/home: the hostile author's name shows {name!r}")
    for selector in [".username", "time[datetime][title]", ".feed-tag", f'a.reply[href="/compose?reply_to={hostile_id}"]']:
        check(item.find_elements("css selector", selector), f"/home: a tweet has no {selector}")
    check_nothing_runs(driver, "/home")
    return "the hostile text and name show as text; no script, no planted element, no alert"


def reposts_and_quotes(ctx):
    """On /home, every repost shows its original's author (as /api/feed/home's retweetOf
    has it), not the reposter, with "reposted by" above; every quote its quoted post as
    a card."""
    reader, driver = ctx.reader, ctx.signed_in()
    load(driver, reader.base + "home")
    items = {item["id"]: item for item in reader.json(f"api/feed/home?limit={PAGE_SIZE}")}
    reposts = quotes = 0
    for li in driver.find_elements("css selector", "ol.timeline > li.tweet"):
        item = items.get(li.get_attribute("data-id"))
        if item is None:  # came in between the page and the JSON
            continue
        original, quoted = item.get("retweetOf"), item.get("quoted")
        if original:
            reposts += 1
            username = shown(li, ":scope > div.body > p.meta a.username")
            check(username == "@" + original["author"]["username"],
                  f"/home: the repost {item['id']} shows {username}, not its original's author "
                  f"@{original['author']['username']}")
            check("repost" in li.get_attribute("class").split(), f"/home: the repost {item['id']} is not li.repost")
            check(shown(li, "p.reposted").startswith("reposted by"), f"/home: the repost {item['id']} has no 'reposted by'")
        if quoted:
            quotes += 1
            cards = li.find_elements("css selector", f'blockquote.quoted[data-id="{quoted["id"]}"]')
            check(cards, f"/home: the quote {item['id']} shows no card of {quoted['id']}")
            check(shown(cards[0], "a.username") == "@" + quoted["author"]["username"],
                  f"/home: the quote {item['id']}'s card shows {shown(cards[0], 'a.username')}")
    check(reposts and quotes, f"/home's first page has {reposts} reposts and {quotes} quotes; expected some of each")
    return (f"/home: each of its {reposts} reposts shows the original's author (/api/feed/home's retweetOf) under "
            f"'reposted by', each of its {quotes} quotes a card of the quoted post")


def hostile_references(ctx):
    """The hostile quoted post and reposted original show as text on /home, by their own
    authors: in the quote's card, and as the original under "reposted by"."""
    hostile, driver = ctx.hostile(), ctx.signed_in()
    quote, repost = hostile["quote"], hostile["repost"]
    load(driver, ctx.reader.base + "home")
    li = driver.find_element("css selector", f'ol.timeline > li.tweet[data-id="{quote["id"]}"]')
    check(shown(li, ":scope > div.body > p.meta a.username") == "@" + quote["username"],
          f"/home: the quote {quote['id']} is not shown as @{quote['username']}'s")
    cards = li.find_elements("css selector", f'blockquote.quoted[data-id="{quote["original"]}"]')
    check(cards, f"/home: the quote {quote['id']} has no card of the quoted post {quote['original']}")
    check(shown(cards[0], "p.text") == QUOTED_TEXT, f"/home: the quoted card shows {shown(cards[0], 'p.text')!r}")
    check(shown(cards[0], ".name") == QUOTED_NAME, f"/home: the quoted card's author shows {shown(cards[0], '.name')!r}")
    check(shown(cards[0], "a.username") == "@" + quote["originalUsername"],
          f"/home: the quoted card is by {shown(cards[0], 'a.username')}, not @{quote['originalUsername']}")

    li = driver.find_element("css selector", f'ol.timeline > li.tweet[data-id="{repost["id"]}"]')
    author = shown(li, ":scope > div.body > p.meta a.username")
    check(author == "@" + repost["originalUsername"] and author != "@" + repost["username"],
          f"/home: the repost {repost['id']} shows {author}, not the original's author @{repost['originalUsername']}")
    check(shown(li, ":scope > div.body > p.meta .name") == REPOSTED_NAME,
          f"/home: the reposted original's author shows {shown(li, ':scope > div.body > p.meta .name')!r}")
    check(shown(li, ":scope > div.body > p.text") == REPOSTED_TEXT,
          f"/home: the reposted original shows {shown(li, ':scope > div.body > p.text')!r}")
    by = li.find_elements("css selector", "p.reposted a")
    check(shown(li, "p.reposted").startswith("reposted by ") and by
          and by[0].get_attribute("href").endswith("/" + repost["username"]),
          f"/home: the repost says {shown(li, 'p.reposted')!r}, not 'reposted by' @{repost['username']}")
    check(li.find_elements("css selector", f'a.reply[href="/compose?reply_to={repost["original"]}"]'),
          f"/home: the repost's Reply does not answer the original {repost['original']}")
    check_nothing_runs(driver, "/home with the hostile quote and repost")
    return (f"/home: the hostile quoted post ({quote['original']} by @{quote['originalUsername']}) shows as text in the "
            f"card of @{quote['username']}'s quote; the hostile reposted original shows as text by its author "
            f"@{repost['originalUsername']}, 'reposted by' @{repost['username']} above; nothing ran")


def paging(ctx):
    reader, driver = ctx.reader, ctx.signed_in()
    load(driver, reader.base + "home")
    first_page = tweet_ids(driver)
    older = driver.find_elements("css selector", "a[rel=next]")
    check(older, "/home: no a[rel=next] (Older) link")
    click(driver, older[0])
    wait_until("the Older link to open ?before=", 30, lambda: "before=" in driver.current_url and ready(driver))
    check(query_of(driver).get("before") == [str(first_page[-1])],
          f"Older opened {driver.current_url}, expected ?before={first_page[-1]}")
    second_page = tweet_ids(driver)
    check(second_page, f"{driver.current_url}: no tweets")
    check(second_page[0] < first_page[-1], f"{driver.current_url}: starts at {second_page[0]}, not below {first_page[-1]}")
    check(not set(second_page) & set(first_page), f"{driver.current_url}: repeats tweets of the first page")
    check(second_page == sorted(second_page, reverse=True), f"{driver.current_url}: not newest first")
    check_avatars(driver, reader, driver.current_url)
    check_nothing_runs(driver, driver.current_url)
    return f"clicking Older shows {len(second_page)} older tweets, none repeated"


def search_by_clicking(driver, words):
    box = driver.find_element("css selector", 'form[role=search][action="/search"] input[name=q]')
    box.clear()
    box.send_keys(words)
    click(driver, driver.find_element("css selector", "form[role=search] button[type=submit]"))
    wait_until(f"the search for {words!r} to open /search", 30,
               lambda: path_of(driver) == "/search" and query_of(driver).get("q") == [words] and ready(driver))
    return driver.find_elements("css selector", "ol.timeline > li.tweet")


def search(ctx):
    hostile, driver = ctx.hostile(), ctx.signed_in()
    hostile_id, username = hostile["id"], hostile["username"]
    load(driver, ctx.reader.base + "home")
    results = search_by_clicking(driver, "onerror")
    found = [item for item in results if item.get_attribute("data-id") == hostile_id]
    check(found, f"searching 'onerror' does not find the hostile tweet ({len(results)} results)")
    text = found[0].find_element("css selector", "p.text").get_attribute("textContent")
    check(text == HOSTILE_TEXT, f"/search: the hostile tweet shows {text!r}")
    check_nothing_runs(driver, "/search?q=onerror")

    results = search_by_clicking(driver, f"from:{username}")
    names = [item.find_element("css selector", ".username").get_attribute("textContent").strip() for item in results]
    check(names and all(name.lstrip("@").lower() == username.lower() for name in names),
          f"searching from:{username} shows {names}")
    check(any(item.get_attribute("data-id") == hostile_id for item in results),
          f"searching from:{username} does not show the hostile tweet")
    return f"searching by clicking finds the hostile tweet by a word ('onerror') and by from:{username}"


CHECKS = [
    ("stored-exactly", stored_exactly),
    ("home", home),
    ("avatars", avatars),
    ("hostile-as-text", hostile_as_text),
    ("reposts-and-quotes", reposts_and_quotes),
    ("hostile-references", hostile_references),
    ("paging", paging),
    ("search", search),
]
