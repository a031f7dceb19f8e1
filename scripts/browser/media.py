"""Media: photos from the reader's cache (/media/) loaded with alt text and size; a
video's or GIF's still inside a link to x.com; a photo's bytes and its refusals."""

import re

from .base import IMAGE_MAGIC, check, wait_until
from .page import check_images_loaded, click_to_next_page, load


class MediaSeen:
    """What the pages checked showed of photos and videos' / GIFs' stills."""

    def __init__(self):
        self.photos = self.stills = self.links = self.pending = 0
        self.pages = []
        self.file = None


def check_media(driver, where, seen):
    """Every <img> from /media/ (the reader's photo cache) loaded (`naturalWidth > 0`, the
    lazy ones once scrolled to), with alt text and its width and height; no picture in
    a post comes from anywhere else; a video's or GIF's still is inside a link to the
    post on x.com."""
    seen.pages.append(where)
    driver.execute_script("""
        Array.from(document.querySelectorAll('img')).filter(i => (i.getAttribute('src') || '').startsWith('/media/'))
          .forEach(i => i.scrollIntoView({block: 'center'}));
        window.scrollTo(0, 0);""")
    check_images_loaded(driver, "Array.from(document.querySelectorAll('img'))"
                        ".filter(i => (i.getAttribute('src') || '').startsWith('/media/'))", "photos from /media/", where)
    images = driver.execute_script("""
        return Array.from(document.querySelectorAll('img'))
          .filter(i => (i.getAttribute('src') || '').startsWith('/media/') || i.closest('.media'))
          .map(i => ({src: i.getAttribute('src'), alt: i.getAttribute('alt'), width: i.getAttribute('width'),
                      height: i.getAttribute('height'), naturalWidth: i.naturalWidth, kind: i.className,
                      link: i.closest('a') ? i.closest('a').getAttribute('href') : null}));""")
    for image in images:
        source = image["src"] or ""
        check(source.startswith("/media/"), f"{where}: a post's picture does not come from /media/: {source!r}")
        check(image["naturalWidth"] > 0, f"{where}: {source} did not load")
        check((image["alt"] or "").strip(), f"{where}: {source} has no alt text (alt={image['alt']!r})")
        for name in ["width", "height"]:
            check(re.fullmatch(r"[1-9]\d*", image[name] or ""), f"{where}: {source} has no {name} ({image[name]!r})")
        still = re.search(r"\bmedia-(video|animated_gif)\b", image["kind"] or "")
        if still:
            check((image["link"] or "").startswith("https://x.com/"),
                  f"{where}: the still {source} is not inside a link to the post on x.com ({image['link']!r})")
            seen.stills += 1
        else:
            seen.photos += 1
        seen.file = seen.file or source
    links = driver.execute_script(
        "return Array.from(document.querySelectorAll('.media a.play')).map(a => a.getAttribute('href'))")
    for href in links:
        check((href or "").startswith("https://x.com/"), f"{where}: a video's or GIF's link goes to {href!r}, not x.com")
    seen.links += len(links)
    seen.pending += len(driver.find_elements("css selector", ".media .media-pending"))


def wait_for_photos(driver, reader):
    """Reloads /home until the photo cache has served one photo (and one still, when the
    page has a video or GIF)."""
    def cached():
        load(driver, reader.base + "home")
        counts = driver.execute_script("""
            const fromCache = i => (i.getAttribute('src') || '').startsWith('/media/');
            return {photos: Array.from(document.querySelectorAll('.media img')).filter(fromCache).length,
                    plays: document.querySelectorAll('.media a.play').length,
                    stills: Array.from(document.querySelectorAll('.media a.play img')).filter(fromCache).length};""")
        return counts["photos"] and (counts["stills"] or not counts["plays"])

    wait_until("/home to show a photo (and a still) from /media/", 90, cached, interval=2)


def photos(ctx):
    """Photos are required: the demo's posts have them and its daemon caches them. /home
    (once the cache has served its photos), the page before it, the reply chain's and
    the quote's conversation pages."""
    reader, driver = ctx.reader, ctx.signed_in()
    pages = [f"tweet/{ctx.chain()['ancestors'][0]}", f"tweet/{ctx.hostile()['quote']['id']}"]
    seen = MediaSeen()
    wait_for_photos(driver, reader)
    check_media(driver, "/home", seen)
    older = driver.find_elements("css selector", "a[rel=next]")
    check(older, "/home: no a[rel=next] (Older) link")
    click_to_next_page(driver, older[0], "the Older link")
    check_media(driver, driver.current_url, seen)
    for page in pages:
        load(driver, reader.base + page)
        check_media(driver, "/" + page, seen)
    check(seen.photos, f"photos: none shown from /media/ on {len(seen.pages)} pages ({seen.pending} 'not cached yet')")
    if seen.links:
        check(seen.stills, f"photos: {seen.links} video/GIF links to x.com, none with its still as an <img>")
    return (f"photos: {seen.photos} photos and {seen.stills} stills from /media/ loaded, each with alt text, "
            f"width and height; every still inside a link to x.com ({seen.links} links); on " + ", ".join(seen.pages))


def photo_file(ctx):
    """One photo /home shows, straight from /media/: an image type its bytes match, 401
    without a session, no way out of the cache."""
    reader, driver = ctx.reader, ctx.signed_in()
    wait_for_photos(driver, reader)
    path = driver.execute_script(
        "const i = Array.from(document.querySelectorAll('.media img'))"
        ".find(i => (i.getAttribute('src') || '').startsWith('/media/')); return i ? i.getAttribute('src') : null")
    check(path, "/home shows no photo from /media/")
    status, headers, body = reader.fetch(path.lstrip("/"))
    check(status == 200, f"{path}: status {status}")
    kind = headers.get("Content-Type", "")
    check(kind in IMAGE_MAGIC and body.startswith(IMAGE_MAGIC[kind]), f"{path}: served as {kind!r}, its bytes do not match")
    status, _, _ = reader.fetch(path.lstrip("/"), bearer=False)
    check(status == 401, f"{path} without a session: status {status}, expected 401")
    status, _, _ = reader.fetch("media/..%2f..%2fconfig.json")
    check(status in (400, 403, 404), f"/media/..%2f..%2fconfig.json: status {status}, expected a refusal")
    return f"{path} is an image matching its type ({kind}), 401 without a session; /media/..%2f..%2fconfig.json refused"


CHECKS = [
    ("photos", photos),
    ("photo-file", photo_file),
]
