"""Reading and driving a page in the browser."""

import urllib.parse

from .base import Failure, check, wait_until


def ready(driver):
    return driver.execute_script("return document.readyState") == "complete"


def load(driver, url):
    driver.get(url)
    wait_until(f"{url} to load", 30, lambda: ready(driver))


def path_of(driver):
    return urllib.parse.urlsplit(driver.current_url).path


def query_of(driver):
    return urllib.parse.parse_qs(urllib.parse.urlsplit(driver.current_url).query)


def navigation_status(driver):
    """The HTTP status of the page shown (Navigation Timing's responseStatus)."""
    status = driver.execute_script(
        "const entry = performance.getEntriesByType('navigation')[0]; return entry ? entry.responseStatus : null")
    check(isinstance(status, int) and status > 0, f"{driver.current_url}: the browser reports no status ({status!r})")
    return status


def stale(element):
    from selenium.common.exceptions import StaleElementReferenceException

    try:
        element.tag_name
        return False
    except StaleElementReferenceException:
        return True


def click(driver, element):
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def click_to_next_page(driver, element, what):
    """Clicks a link or a form's button and waits for the page it leads to; its status."""
    page = driver.find_element("css selector", "html")
    click(driver, element)
    wait_until(what, 30, lambda: stale(page) and ready(driver))
    return navigation_status(driver)


def tweet_ids(driver):
    return [int(item.get_attribute("data-id")) for item in driver.find_elements("css selector", "ol.timeline > li.tweet")]


def shown(element, selector):
    """The text content of the first `selector` in `element`, "" when there is none."""
    found = element.find_elements("css selector", selector)
    return found[0].get_attribute("textContent") if found else ""


def check_no_alert(driver, where):
    from selenium.common.exceptions import NoAlertPresentException

    try:
        alert = driver.switch_to.alert
        text = alert.text
        alert.dismiss()
        raise Failure(f"{where}: an alert ran: {text!r}")
    except NoAlertPresentException:
        pass


def check_nothing_runs(driver, where):
    check_no_alert(driver, where)
    scripts = driver.execute_script("return document.scripts.length")
    check(scripts == 0, f"{where}: the page has {scripts} script element(s); it should have none")
    planted = driver.execute_script(
        "return document.querySelectorAll('img[src=\"x\"], script, ol.timeline b, ol.timeline script,"
        " table.outbox img, table.outbox script').length")
    check(planted == 0, f"{where}: a tweet's or status's markup became {planted} element(s)")


def check_images_loaded(driver, images, what, where):
    """Waits until every image the script expression `images` (an array) lists has loaded."""
    def not_loaded():
        return driver.execute_script(
            f"return ({images}).filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.getAttribute('src'))")

    try:
        wait_until(f"{where}: {what} to load", 20, lambda: not not_loaded())
    except Failure:
        raise Failure(f"{where}: {what} that did not load: {not_loaded()[:5]}")


def check_avatars_loaded(driver, where):
    check_images_loaded(driver, "Array.from(document.querySelectorAll('img.avatar'))", "avatars", where)


def open_from_header(driver, reader, path):
    """Clicks the header's link to `path` (from /home when on no reader page)."""
    if not driver.current_url.startswith(reader.base) or not driver.find_elements("css selector", "header"):
        load(driver, reader.base + "home")
    link = driver.find_element("css selector", f'header a[href="/{path}"]')
    status = click_to_next_page(driver, link, f"the header's {path} link to open /{path}")
    check(status == 200 and path_of(driver) == f"/{path}", f"the header's {path} link opened {driver.current_url} ({status})")
