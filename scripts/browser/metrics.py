"""Metrics: /metrics parses as Prometheus text, has the contract's families, and the
home poll counter grows."""

import time

from .base import PAGE_SIZE, Failure, check

# INTERFACE.md, "The reader on the web, and metrics": family names as the Prometheus
# parser reports them (a counter's family drops `_total`).
METRIC_FAMILIES = {
    "twfeed_tweets": "gauge",
    "twfeed_poll_requests": "counter",
    "twfeed_poll_duration_seconds": "histogram",
    "twfeed_rate_limit_remaining": "gauge",
    "twfeed_last_success_timestamp_seconds": "gauge",
    "twfeed_outbox_statuses": "gauge",
    "twfeed_outbox_sent": "counter",
    "twfeed_images_cached_bytes": "gauge",
    "twfeed_images_cached_files": "gauge",
    "twfeed_database_bytes": "gauge",
    "twfeed_up": "gauge",
}
# The poll counter must grow between two scrapes at least this far apart.
POLL_WINDOW = 20


def scrape(reader):
    from prometheus_client.parser import text_string_to_metric_families

    status, headers, body = reader.fetch("metrics")
    check(status == 200, f"/metrics: status {status}")
    try:
        return {family.name: family for family in text_string_to_metric_families(body.decode())}
    except Exception as error:
        raise Failure(f"/metrics does not parse as Prometheus text format: {error}")


def home_polls(families):
    family = families.get("twfeed_poll_requests")
    check(family is not None, "/metrics has no twfeed_poll_requests_total")
    return sum(sample.value for sample in family.samples
               if sample.name == "twfeed_poll_requests_total" and sample.labels.get("feed") == "home")


def first_scrape(ctx):
    """The scrape taken as the demo started (the runner asks for it then): (families, when)."""
    return ctx.made("the first /metrics scrape", lambda: (scrape(ctx.reader), time.monotonic()))


def families(ctx):
    families, _ = first_scrape(ctx)
    for name, kind in METRIC_FAMILIES.items():
        family = families.get(name)
        check(family is not None, f"/metrics has no {name} (families: {', '.join(sorted(families))})")
        check(family.type == kind, f"/metrics: {name} is a {family.type}, expected a {kind}")
    polls = families["twfeed_poll_requests"]
    check(all({"feed", "outcome"} <= set(sample.labels) for sample in polls.samples),
          "/metrics: twfeed_poll_requests_total without feed and outcome labels")
    durations = families["twfeed_poll_duration_seconds"]
    check(any(sample.name == "twfeed_poll_duration_seconds_bucket" and sample.labels.get("feed") == "home"
              for sample in durations.samples), "/metrics: twfeed_poll_duration_seconds has no buckets for home")
    tweets = {sample.labels.get("feed"): sample.value for sample in families["twfeed_tweets"].samples}
    check(tweets.get("home", 0) >= PAGE_SIZE, f"/metrics: twfeed_tweets says {tweets}")
    check([sample.value for sample in families["twfeed_up"].samples] == [1.0],
          f"/metrics: twfeed_up is {[sample.value for sample in families['twfeed_up'].samples]}, not 1")
    return "/metrics parses and has every family of the contract, typed as it says; twfeed_up is 1"


def polls_grow(ctx):
    """Scraped again at least POLL_WINDOW s after the first scrape (the run's other checks
    usually fill that time)."""
    families, at = first_scrape(ctx)
    before = home_polls(families)
    time.sleep(max(0.0, POLL_WINDOW - (time.monotonic() - at)))
    after = home_polls(scrape(ctx.reader))
    check(after > before,
          f"/metrics: twfeed_poll_requests_total{{feed=\"home\"}} stayed at {before} over {POLL_WINDOW} s of polling")
    return f"home polls went {before:g} -> {after:g} over {time.monotonic() - at:.0f} s"


CHECKS = [
    ("families", families),
    ("polls-grow", polls_grow),
]
