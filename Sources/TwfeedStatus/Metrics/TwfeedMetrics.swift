import CoreMetrics
import Foundation
import Metrics
import Prometheus
import Synchronization
import TwfeedBilling
import TwfeedCore
import TwfeedStore

/// The daemon's Prometheus metrics (INTERFACE.md, "The reader on the web, and metrics").
///
/// The counters and the poll-duration histogram are set through swift-metrics where the
/// events happen (the pollers and the outbox call `pollFinished` and `statusSent`). The
/// gauges are stored state, read at scrape time: the counts the store keeps in O(1)
/// (tweets, outbox states, the image cache, the database file) and each feed's sync
/// state (remaining requests, the last success), which `twfeed serve` reads the same way.
///
/// One instance per process, handed to every generation of the daemon (a reload keeps
/// the counters) and to the reader. It owns its registry rather than bootstrapping the
/// global `MetricsSystem`, so tests (and two daemons in one test process) never share
/// counters.
package final class TwfeedMetrics: Sendable {
    package let registry: PrometheusCollectorRegistry
    private let factory: PrometheusMetricsFactory
    private let scraping = Mutex(())

    package init() {
        registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        // Polls take from a few milliseconds (nothing new) to minutes (a backfill at
        // the rate limit's pace).
        factory.durationHistogramBuckets["twfeed_poll_duration_seconds"] = [
            .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1),
            .milliseconds(2500), .seconds(5), .seconds(10), .seconds(30), .seconds(60), .seconds(300),
        ]
        self.factory = factory
        for feed in Feed.polled {
            // Present from the start, at 0: a dashboard's rate() needs the first sample.
            _ = CoreMetrics.Counter(label: "twfeed_poll_requests_total", dimensions: [("feed", feed.rawValue), ("outcome", "ok")], factory: factory)
        }
        _ = CoreMetrics.Counter(label: "twfeed_outbox_sent_total", factory: factory)
    }

    /// A poll of `feed` ended after `requests` requests, all but a failed last one
    /// successful; `failure` is the failed one's outcome label (`rate_limited`,
    /// `unauthorized`, ...), nil when none failed. What the API's headers said (remaining
    /// requests, the last success) is stored state, read at scrape time like the counts.
    package func pollFinished(_ feed: Feed, requests: Int, failure: String?, seconds: Double) {
        let failed = failure == nil ? 0 : 1
        let succeeded = max(0, requests - failed)
        if succeeded > 0 { counter("twfeed_poll_requests_total", ("feed", feed.rawValue), ("outcome", "ok")).increment(by: succeeded) }
        if let failure {
            counter("twfeed_poll_requests_total", ("feed", feed.rawValue), ("outcome", failure)).increment()
        }
        CoreMetrics.Timer(label: "twfeed_poll_duration_seconds", dimensions: [("feed", feed.rawValue)], factory: factory)
            .recordNanoseconds(Int64(max(0, seconds) * 1e9))
    }

    /// A status went out (answered, or found by settling an uncertain one).
    package func statusSent() {
        counter("twfeed_outbox_sent_total").increment()
    }

    /// The gauges (and the ledger's totals) read from the store at scrape time, then the
    /// whole text. One scrape at a time: a total is set as a counter's reset and then its
    /// stored value, which a second scrape must not see halfway.
    package func exposition(stored: StoredCounts) -> [UInt8] {
        scraping.withLock { _ in expose(stored) }
    }

    private func expose(_ stored: StoredCounts) -> [UInt8] {
        for (feed, count) in stored.tweets { gauge("twfeed_tweets", ("feed", feed.rawValue)).record(count) }
        for state in OutboxState.allCases {
            gauge("twfeed_outbox_statuses", ("state", state.rawValue)).record(stored.outbox[state] ?? 0)
        }
        gauge("twfeed_images_cached_bytes").record(stored.imageBytes)
        gauge("twfeed_images_cached_files").record(stored.imageFiles)
        gauge("twfeed_database_bytes").record(stored.databaseBytes)
        gauge("twfeed_up").record(stored.up ? 1 : 0)
        for (feed, sync) in stored.sync {
            if let remaining = sync.rateLimit?.remaining { gauge("twfeed_rate_limit_remaining", ("feed", feed.rawValue)).record(remaining) }
            if let success = sync.lastSuccessAt {
                gauge("twfeed_last_success_timestamp_seconds", ("feed", feed.rawValue)).record(success.timeIntervalSince1970)
            }
        }
        if let spend = stored.spend {
            // Totals kept by the ledger in the store, so they survive restarts as a
            // counter in memory would not; each series is present from the start, at 0.
            for (source, micros) in spend.bySourceMicros {
                total("twfeed_api_spend_usd_total", ("source", source.rawValue), MicroUSD(micros: micros).usd)
            }
            for (kind, count) in spend.byKindResources {
                total("twfeed_api_resources_total", ("kind", kind.rawValue), Double(count))
            }
            gauge("twfeed_api_cycle_spend_usd").record(spend.cycle.usd)
            if let budget = spend.budget { gauge("twfeed_api_budget_usd").record(budget.usd) }
            // One series per state, 1 for the current one: an alert is `== 1` on a name.
            for state in BillingState.allCases {
                gauge("twfeed_api_billing_state", ("state", state.rawValue)).record(state == spend.billingState ? 1 : 0)
            }
            for feed in Feed.polled {
                gauge("twfeed_feed_permitted", ("feed", feed.rawValue)).record(spend.refusal(of: feed) == nil ? 1 : 0)
                gauge("twfeed_feed_gaps", ("feed", feed.rawValue)).record(spend.gaps[feed] ?? 0)
            }
        }
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return buffer
    }

    /// What a scrape reads from the store and the status snapshot (the reader fills it
    /// from `twfeed status`'s report).
    package struct StoredCounts: Sendable {
        package var tweets: [Feed: Int] = [:]
        package var outbox: [OutboxState: Int] = [:]
        package var imageFiles: Int = 0
        package var imageBytes: Int64 = 0
        package var databaseBytes: Int64 = 0
        /// The daemon's loops make progress (a fresh heartbeat, no hung loop).
        package var up = false
        package var sync: [Feed: SyncState] = [:]
        /// The ledger's summary; nil leaves the spend metrics out.
        package var spend: SpendCounts?

        package init() {}
    }

    private func counter(_ label: String, _ dimensions: (String, String)...) -> CoreMetrics.Counter {
        CoreMetrics.Counter(label: label, dimensions: dimensions, factory: factory)
    }

    private func gauge(_ label: String, _ dimensions: (String, String)...) -> CoreMetrics.Gauge {
        CoreMetrics.Gauge(label: label, dimensions: dimensions, factory: factory)
    }

    /// One of the ledger's all-time totals, as the counter its `_total` name says it is (it
    /// only grows: the ledger is never pruned), set to the stored value.
    private func total(_ name: String, _ label: (String, String), _ value: Double) {
        let counter = registry.makeCounter(descriptor: MetricNameDescriptor(metricName: name, unitName: "", helpText: ""), labels: [label])
        counter.reset()
        counter.increment(by: value)
    }
}
