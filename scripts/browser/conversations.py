"""Conversations: a reply chain whose posts above are in no timeline, fetched on first
look; the pages of a quote, its quoted post and a reposted original, opened by clicking."""

import os

from .base import QUOTED_NAME, QUOTED_TEXT, REPOSTED_NAME, REPOSTED_TEXT, Failure, Skip, check, wait_until
from .page import (check_avatars_loaded, check_nothing_runs, click_to_next_page, load, navigation_status, path_of,
                   ready, shown)
from .screenshot import screenshot


def page_state(driver):
    """A conversation page as shown: the ids above, the post, the replies; the posts
    not stored (li.missing) and every "not fetched yet" it says."""
    return driver.execute_script("""
        const ids = selector => Array.from(document.querySelectorAll(selector)).map(li => li.dataset.id);
        const main = document.querySelector('main');
        return {
          ancestors: ids('ol.timeline.ancestors > li.tweet'),
          missing: ids('ol.timeline.ancestors > li.tweet.missing'),
          focus: ids('ol.timeline.focus > li.tweet'),
          replies: ids('ol.timeline.replies > li.tweet'),
          faults: main ? (main.textContent.match(/not fetched yet/g) || []).length : 0,
        };""")


def reload_until_fetched(driver, what, complete, seconds=60):
    """Reloads the page shown until `complete(state)`: the daemon's fetcher has stored what
    the first look asked for. The first look's state (as shown before any reload) and
    the complete one."""
    seen = []

    def probe():
        if seen:
            driver.refresh()
            wait_until(f"{driver.current_url} to load again", 30, lambda: ready(driver))
        status = navigation_status(driver)
        state = page_state(driver) if status == 200 else {"status": status}
        seen.append(state)
        return state if status == 200 and complete(state) else None

    try:
        final = wait_until(what, seconds, probe, interval=1)
    except Failure as failure:
        raise Failure(f"{failure}; {len(seen)} looks, the last: {seen[-1] if seen else None}")
    return seen[0], final, len(seen)


def first_look(state):
    if "status" in state:
        return f"a {state['status']} (not stored yet)"
    return f"{len(state['missing'])} of the posts above not stored, {state['faults']} 'not fetched yet'"


def check_marked(driver, tweet_id, where):
    """The post a conversation page is about stands out: it alone is in ol.focus, on a
    background of its own."""
    backgrounds = driver.execute_script("""
        const background = li => li ? getComputedStyle(li).backgroundColor : null;
        return {focus: background(document.querySelector('ol.timeline.focus > li.tweet')),
                other: background(document.querySelector('ol.timeline.ancestors > li.tweet, ol.timeline.replies > li.tweet'))};""")
    transparent = (None, "transparent", "rgba(0, 0, 0, 0)")
    check(backgrounds["focus"] not in transparent and backgrounds["focus"] != backgrounds["other"],
          f"{where}: the post {tweet_id} is not marked (its background {backgrounds['focus']}, "
          f"the others' {backgrounds['other']})")


def above_complete(above):
    return lambda state: state["ancestors"] == above and not state["missing"] and state["faults"] == 0


def reply_chain(ctx):
    """From the chain's reply on /home, its "replying to" link opens its parent's
    conversation: at first the posts above may be "not fetched yet" (the look asks the
    daemon for them); reloading shows them once fetched, root first, the parent marked
    and the reply below it."""
    chain, driver = ctx.chain(), ctx.signed_in()
    reply_id, ancestors = chain["id"], chain["ancestors"]
    parent, root = ancestors[0], ancestors[-1]
    load(driver, ctx.reader.base + "home")
    items = driver.find_elements("css selector", f'ol.timeline > li.tweet[data-id="{reply_id}"]')
    check(items, f"/home: the reply {reply_id} at the end of the chain is not on the first page")
    links = items[0].find_elements("css selector", "p.context a")
    check(links and links[0].get_attribute("href").endswith(f"/tweet/{parent}"),
          f"/home: the reply {reply_id} has no 'replying to' link to /tweet/{parent}")
    context = items[0].find_element("css selector", "p.context").get_attribute("textContent")
    click_to_next_page(driver, links[0], "the 'replying to' link to open the conversation")
    check(path_of(driver) == f"/tweet/{parent}", f"the 'replying to' link opened {driver.current_url}")
    above = list(reversed(ancestors[1:]))
    first, final, looks = reload_until_fetched(
        driver, f"/tweet/{parent} to show the {len(above)} posts above it", above_complete(above))
    check(final["focus"] == [parent], f"/tweet/{parent}: ol.focus holds {final['focus']}, not the post")
    check(reply_id in final["replies"], f"/tweet/{parent}: the reply {reply_id} is not below it ({final['replies']})")
    check_marked(driver, parent, f"/tweet/{parent}")
    check_avatars_loaded(driver, f"/tweet/{parent}")
    check_nothing_runs(driver, f"/tweet/{parent}")
    return (f"/home's reply {reply_id} ({context.strip()[:50]!r}): its link opened /tweet/{parent}; first look: "
            f"{first_look(first)}; after {looks} look(s) the {len(above)} posts above it, root {root} first, "
            "none missing, the post marked, the reply below it")


def whole_chain(ctx):
    """The parent's page (once the posts above are fetched), then its reply's
    Conversation link: the whole chain above the reply, root first, the reply marked."""
    chain, driver = ctx.chain(), ctx.signed_in()
    reply_id, ancestors = chain["id"], chain["ancestors"]
    parent = ancestors[0]
    load(driver, ctx.reader.base + f"tweet/{parent}")
    reload_until_fetched(driver, f"/tweet/{parent} to show the posts above it",
                         above_complete(list(reversed(ancestors[1:]))))
    link = driver.find_element("css selector", f'ol.timeline.replies > li.tweet[data-id="{reply_id}"] a.thread')
    click_to_next_page(driver, link, "the reply's Conversation link")
    check(path_of(driver) == f"/tweet/{reply_id}", f"the reply's Conversation link opened {driver.current_url}")
    state = page_state(driver)
    check(state["ancestors"] == list(reversed(ancestors)) and not state["missing"] and state["faults"] == 0,
          f"/tweet/{reply_id}: the posts above are {state['ancestors']} ({len(state['missing'])} missing), "
          f"expected {list(reversed(ancestors))}")
    check(state["focus"] == [reply_id], f"/tweet/{reply_id}: ol.focus holds {state['focus']}")
    check_marked(driver, reply_id, f"/tweet/{reply_id}")
    return (f"its Conversation link opened /tweet/{reply_id}: all {len(ancestors)} posts above, root first, "
            "the reply marked at the end")


def hostile_reference_pages(ctx):
    """Clicking the quote's Conversation link, its card's link, and the repost's
    Conversation link shows the hostile quoted post and reposted original as text, by
    their own authors."""
    hostile, driver = ctx.hostile(), ctx.signed_in()
    quote, repost = hostile["quote"], hostile["repost"]
    load(driver, ctx.reader.base + "home")
    link = driver.find_element("css selector", f'li.tweet[data-id="{quote["id"]}"] > div.body > p.meta a.thread')
    click_to_next_page(driver, link, "the quote's Conversation link")
    check(path_of(driver) == f"/tweet/{quote['id']}", f"the quote's Conversation link opened {driver.current_url}")
    focus = driver.find_element("css selector", f'ol.timeline.focus > li.tweet[data-id="{quote["id"]}"]')
    card = focus.find_element("css selector", f'blockquote.quoted[data-id="{quote["original"]}"]')
    check(shown(card, "p.text") == QUOTED_TEXT and shown(card, ".name") == QUOTED_NAME,
          f"/tweet/{quote['id']}: the card shows {shown(card, '.name')!r}: {shown(card, 'p.text')!r}")
    check_nothing_runs(driver, f"/tweet/{quote['id']}")
    click_to_next_page(driver, card.find_element("css selector", "a.permalink"), "the card's link to the quoted post")
    check(path_of(driver) == f"/tweet/{quote['original']}", f"the card's link opened {driver.current_url}")
    focus = driver.find_element("css selector", f'ol.timeline.focus > li.tweet[data-id="{quote["original"]}"]')
    check(shown(focus, "p.text") == QUOTED_TEXT and shown(focus, ".name") == QUOTED_NAME,
          f"/tweet/{quote['original']}: the quoted post shows {shown(focus, '.name')!r}: {shown(focus, 'p.text')!r}")
    check_nothing_runs(driver, f"/tweet/{quote['original']}")

    load(driver, ctx.reader.base + "home")
    link = driver.find_element("css selector", f'li.tweet[data-id="{repost["id"]}"] > div.body > p.meta a.thread')
    click_to_next_page(driver, link, "the repost's Conversation link")
    check(path_of(driver) == f"/tweet/{repost['original']}",
          f"the repost's Conversation link opened {driver.current_url}, not the original's /tweet/{repost['original']}")
    focus = driver.find_element("css selector", f'ol.timeline.focus > li.tweet[data-id="{repost["original"]}"]')
    check(shown(focus, "p.text") == REPOSTED_TEXT and shown(focus, ".name") == REPOSTED_NAME,
          f"/tweet/{repost['original']}: the original shows {shown(focus, '.name')!r}: {shown(focus, 'p.text')!r}")
    check(shown(focus, "a.username") == "@" + repost["originalUsername"],
          f"/tweet/{repost['original']}: the original is by {shown(focus, 'a.username')}")
    check_nothing_runs(driver, f"/tweet/{repost['original']}")
    return (f"by clicking: /tweet/{quote['id']} (the quote, its card), /tweet/{quote['original']} (the quoted post) "
            f"and /tweet/{repost['original']} (the reposted original) show the hostile texts and names as text; "
            "nothing ran")


def take_screenshot(ctx):
    """With TWFEED_SCREENSHOT=PATH: /home beside the reply chain's conversation page, as
    one PNG (docs/reader.png); run before the hostile posts join home."""
    path = os.environ.get("TWFEED_SCREENSHOT")
    if not path:
        raise Skip("no TWFEED_SCREENSHOT")
    chain, driver = ctx.chain(), ctx.signed_in()
    from .media import wait_for_photos

    wait_for_photos(driver, ctx.reader)
    return screenshot(driver, ctx.reader, os.path.abspath(path), ctx.work, f"/tweet/{chain['ancestors'][0]}")


CHECKS = [
    ("reply-chain", reply_chain),
    ("whole-chain", whole_chain),
    ("screenshot", take_screenshot),
    ("hostile-reference-pages", hostile_reference_pages),
]
