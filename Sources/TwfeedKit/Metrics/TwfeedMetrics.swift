import CoreMetrics
import Foundation
import Metrics
import Prometheus

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
public final class TwfeedMetrics: Sendable {
    public let registry: PrometheusCollectorRegistry
    private let factory: PrometheusMetricsFactory

    public init() {
        registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        // Polls take from a few milliseconds (nothing new) to minutes (a backfill at
        // the rate limit's pace).
        factory.durationHistogramBuckets["twfeed_poll_duration_seconds"] = [
            .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1),
            .milliseconds(2500), .seconds(5), .seconds(10), .seconds(30), .seconds(60), .seconds(300),
        ]
        self.factory = factory
        for feed in Feed.allCases {
            // Present from the start, at 0: a dashboard's rate() needs the first sample.
            _ = CoreMetrics.Counter(label: "twfeed_poll_requests_total", dimensions: [("feed", feed.rawValue), ("outcome", "ok")], factory: factory)
        }
        _ = CoreMetrics.Counter(label: "twfeed_outbox_sent_total", factory: factory)
    }

    /// The outcome label of a request: `ok`, or what went wrong.
    static func outcome(_ error: APIError?) -> String {
        switch error?.kind {
        case nil: "ok"
        case .rateLimited: "rate_limited"
        case .unauthorized: "unauthorized"
        case .transient: "transient"
        case .rejected: "rejected"
        }
    }

    /// A poll of `feed` ended: its requests (all but a failed last one succeeded) and how
    /// long it took. What the API's headers said (remaining requests, the last success)
    /// is stored state, read at scrape time like the counts.
    public func pollFinished(_ feed: Feed, outcome: PollOutcome, seconds: Double) {
        let failed = outcome.error == nil ? 0 : 1
        let succeeded = max(0, outcome.requests - failed)
        if succeeded > 0 { counter("twfeed_poll_requests_total", ("feed", feed.rawValue), ("outcome", "ok")).increment(by: succeeded) }
        if failed > 0 {
            counter("twfeed_poll_requests_total", ("feed", feed.rawValue), ("outcome", Self.outcome(outcome.error))).increment()
        }
        CoreMetrics.Timer(label: "twfeed_poll_duration_seconds", dimensions: [("feed", feed.rawValue)], factory: factory)
            .recordNanoseconds(Int64(max(0, seconds) * 1e9))
    }

    /// A status went out (answered, or found by settling an uncertain one).
    public func statusSent() {
        counter("twfeed_outbox_sent_total").increment()
    }

    /// The gauges read from the store at scrape time, then the whole text.
    public func exposition(stored: StoredCounts) -> [UInt8] {
        for (feed, count) in stored.tweets { gauge("twfeed_tweets", ("feed", feed.rawValue)).record(count) }
        for state in OutboxState.allCases {
            gauge("twfeed_outbox_statuses", ("state", state.rawValue)).record(stored.outbox[state.rawValue] ?? 0)
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
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return buffer
    }

    /// What a scrape reads from the store and the status snapshot.
    public struct StoredCounts: Sendable {
        public var tweets: [Feed: Int] = [:]
        public var outbox: [String: Int] = [:]
        public var imageFiles: Int = 0
        public var imageBytes: Int64 = 0
        public var databaseBytes: Int64 = 0
        /// The daemon's loops make progress (a fresh heartbeat, no hung loop).
        public var up = false
        public var sync: [Feed: SyncState] = [:]

        public init() {}

        public init(report: StatusReport, up: Bool) {
            for feed in report.feeds {
                tweets[feed.feed] = feed.stats.tweets
                sync[feed.feed] = feed.sync
            }
            outbox = report.outbox
            imageFiles = report.imageFiles
            imageBytes = report.imageBytes
            databaseBytes = report.databaseBytes
            self.up = up
        }
    }

    private func counter(_ label: String, _ dimensions: (String, String)...) -> CoreMetrics.Counter {
        CoreMetrics.Counter(label: label, dimensions: dimensions, factory: factory)
    }

    private func gauge(_ label: String, _ dimensions: (String, String)...) -> CoreMetrics.Gauge {
        CoreMetrics.Gauge(label: label, dimensions: dimensions, factory: factory)
    }
}
