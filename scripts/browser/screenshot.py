"""The screenshot in docs/reader.png: /home beside a conversation page, as one PNG."""

import os

from .base import Failure, check, wait_until
from .page import load

# The screenshot's two pages, each this wide (the reader's column is 42rem) and high.
SHOT_WIDTH, SHOT_HEIGHT = 760, 1100


def set_viewport(driver, width, height):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})


def screenshot(driver, reader, path, work, conversation):
    """/home (once the first screen's avatars are cached ones) beside the conversation page
    `conversation` (/tweet/ID: the posts above, the post, its reply), in one PNG."""
    def cached_first_screen():
        load(driver, reader.base + "home")
        sources = driver.execute_script(
            "return Array.from(document.querySelectorAll('img.avatar')).slice(0, 12).map(i => i.getAttribute('src'))")
        return sources and all(source.startswith("/avatars/") for source in sources)

    def first_screen_loaded():
        return driver.execute_script(
            "return Array.from(document.querySelectorAll('img.avatar')).slice(0, 12)"
            ".every(i => i.complete && i.naturalWidth > 0)")

    try:
        wait_until("the first screen's avatars to be cached", 30, cached_first_screen, interval=2)
    except Failure as failure:
        print(f"browser-test: note: {failure}; taking the screenshot anyway", flush=True)
    set_viewport(driver, SHOT_WIDTH, SHOT_HEIGHT)
    try:
        shots = []
        for name, page in [("timeline", "home"), ("conversation", conversation.lstrip("/"))]:
            load(driver, reader.base + page)
            wait_until(f"/{page}: the first screen's avatars to load", 20, first_screen_loaded)
            driver.execute_script("window.scrollTo(0, 0)")
            shot = os.path.join(work, f"{name}.png")
            check(driver.save_screenshot(shot), f"could not save {shot}")
            shots.append(os.path.basename(shot))

        gap = 12
        page = os.path.join(work, "side-by-side.html")
        with open(page, "w") as handle:
            handle.write('<!DOCTYPE html><html><head><style>html, body { margin: 0; background: #c9ced6; } '
                         f'body {{ display: flex; gap: {gap}px; }} img {{ display: block; }}</style></head><body>'
                         + "".join(f'<img src="{shot}" alt="">' for shot in shots) + '</body></html>')
        set_viewport(driver, 2 * SHOT_WIDTH + gap, SHOT_HEIGHT)
        load(driver, "file://" + page)
        wait_until("the two screenshots to load side by side", 20, lambda: driver.execute_script(
            "return Array.from(document.images).every(i => i.complete && i.naturalWidth > 0)"))
        check(driver.save_screenshot(path), f"could not save the screenshot to {path}")
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    return f"screenshot of /home beside {conversation} saved to {path} ({os.path.getsize(path) // 1024} KB)"
