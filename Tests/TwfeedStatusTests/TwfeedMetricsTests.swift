import Foundation
import Testing
@testable import TwfeedBilling
@testable import TwfeedCore
@testable import TwfeedStatus
@testable import TwfeedStore

/// `/metrics` as a scraper reads it: the families, their types and labels
/// (INTERFACE.md, "The reader on the web, and metrics").
struct TwfeedMetricsTests {
    /// The scrape's text, read by sample: `name{labels}` → value, `name` → its `# TYPE`.
    struct Scrape {
        var values: [String: Double] = [:]
        var types: [String: String] = [:]

        init(_ bytes: [UInt8]) {
            for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
                let fields = line.split(separator: " ")
                if fields.count == 4, fields[0] == "#", fields[1] == "TYPE" {
                    types[String(fields[2])] = String(fields[3])
                } else if fields.count == 2, let value = Double(fields[1]) {
                    values[String(fields[0])] = value
                }
            }
        }

        subscript(_ sample: String) -> Double? { values[sample] }
    }

    @Test func theGaugesShowTheStoredCountsByFeedAndStateName() {
        var stored = TwfeedMetrics.StoredCounts()
        stored.tweets = [.home: 12, .mentions: 0]
        stored.outbox = [.pending: 2, .uncertain: 1]
        stored.imageBytes = 70_000
        stored.databaseBytes = 4096
        stored.up = true
        var home = SyncState(feed: .home)
        home.rateLimit = RateLimit(limit: 180, remaining: 170, resetAt: Date(timeIntervalSince1970: 1_800_000_600))
        home.lastSuccessAt = Date(timeIntervalSince1970: 1_800_000_000)
        stored.sync = [.home: home]
        let scrape = Scrape(TwfeedMetrics().exposition(stored: stored))
        #expect(scrape.types["twfeed_tweets"] == "gauge")
        #expect(scrape[#"twfeed_tweets{feed="home"}"#] == 12)
        #expect(scrape[#"twfeed_tweets{feed="mentions"}"#] == 0)
        // Every state is a series, at 0 when none is in it.
        for state in OutboxState.allCases {
            #expect(scrape[#"twfeed_outbox_statuses{state="\#(state.rawValue)"}"#] == Double(stored.outbox[state] ?? 0))
        }
        #expect(scrape["twfeed_images_cached_bytes"] == 70_000)
        #expect(scrape["twfeed_database_bytes"] == 4096)
        #expect(scrape["twfeed_up"] == 1)
        #expect(scrape[#"twfeed_rate_limit_remaining{feed="home"}"#] == 170)
        #expect(scrape[#"twfeed_last_success_timestamp_seconds{feed="home"}"#] == 1_800_000_000)
        #expect(scrape[#"twfeed_rate_limit_remaining{feed="mentions"}"#] == nil, "no headers yet, no series")
        #expect(!scrape.types.keys.contains { $0.hasPrefix("twfeed_api_") }, "no ledger, no spend metrics")
    }

    @Test func theSpendGaugesAreBySourceKindAndBillingStateName() {
        var stored = TwfeedMetrics.StoredCounts()
        var spend = SpendCounts(
            todayMicros: 0, cycleMicros: 1_500_000, cycleStart: "2027-01-01", cycleEnd: "2027-02-01", budgetMicros: 5_000_000,
            bySourceMicros: [:], byKindResources: [:], state: BillingState.outOfCredits.rawValue,
            refusals: [.retweets: .init(reason: "not_permitted", detail: "client-not-enrolled", since: Date())],
            gaps: [.mentions: 2])
        for source in BillingSource.allCases { spend.bySourceMicros[source] = 0 }
        spend.bySourceMicros[.home] = 15_000
        spend.byKindResources = [.postRead: 3]
        stored.spend = spend
        let metrics = TwfeedMetrics()
        let scrape = Scrape(metrics.exposition(stored: stored))
        #expect(scrape[#"twfeed_api_spend_usd_total{source="home"}"#] == 0.015)
        #expect(scrape[#"twfeed_api_spend_usd_total{source="outbox"}"#] == 0)
        #expect(scrape[#"twfeed_api_resources_total{kind="post_read"}"#] == 3)
        // The ledger's totals only grow: counters, as their `_total` names say (promtool's
        // lint refuses a gauge so named), each scrape showing the stored value, not a sum.
        #expect(scrape.types["twfeed_api_spend_usd_total"] == "counter")
        #expect(scrape.types["twfeed_api_resources_total"] == "counter")
        #expect(scrape.types["twfeed_api_cycle_spend_usd"] == "gauge")
        stored.spend?.bySourceMicros[.home] = 20_000
        let again = Scrape(metrics.exposition(stored: stored))
        #expect(again[#"twfeed_api_spend_usd_total{source="home"}"#] == 0.02)
        #expect(again[#"twfeed_api_resources_total{kind="post_read"}"#] == 3)
        #expect(scrape["twfeed_api_cycle_spend_usd"] == 1.5)
        #expect(scrape["twfeed_api_budget_usd"] == 5)
        // One series per billing state, 1 on the current one.
        for state in BillingState.allCases {
            #expect(scrape[#"twfeed_api_billing_state{state="\#(state.rawValue)"}"#] == (state == .outOfCredits ? 1 : 0))
        }
        #expect(scrape[#"twfeed_feed_permitted{feed="retweets"}"#] == 0)
        #expect(scrape[#"twfeed_feed_permitted{feed="home"}"#] == 1)
        #expect(scrape[#"twfeed_feed_gaps{feed="mentions"}"#] == 2)
        #expect(scrape[#"twfeed_feed_gaps{feed="home"}"#] == 0)
    }

    /// The request counters start at 0 for every feed, count a failed poll's requests by
    /// outcome, and belong to one instance (a second daemon in the process starts at 0).
    @Test func pollsCountRequestsByFeedAndOutcome() {
        let metrics = TwfeedMetrics()
        let before = Scrape(metrics.exposition(stored: .init()))
        #expect(before.types["twfeed_poll_requests_total"] == "counter")
        for feed in Feed.polled {
            #expect(before[#"twfeed_poll_requests_total{feed="\#(feed.rawValue)",outcome="ok"}"#] == 0)
        }
        #expect(before["twfeed_outbox_sent_total"] == 0)

        metrics.pollFinished(.home, requests: 3, failure: "rate_limited", seconds: 0.2)
        metrics.pollFinished(.home, requests: 1, failure: nil, seconds: 0.03)
        metrics.statusSent()
        let after = Scrape(metrics.exposition(stored: .init()))
        #expect(after[#"twfeed_poll_requests_total{feed="home",outcome="ok"}"#] == 3)
        #expect(after[#"twfeed_poll_requests_total{feed="home",outcome="rate_limited"}"#] == 1)
        #expect(after[#"twfeed_poll_requests_total{feed="mentions",outcome="ok"}"#] == 0)
        #expect(after["twfeed_outbox_sent_total"] == 1)
        #expect(after.types["twfeed_poll_duration_seconds"] == "histogram")
        #expect(after[#"twfeed_poll_duration_seconds_count{feed="home"}"#] == 2)
        #expect(after[#"twfeed_poll_duration_seconds_bucket{feed="home",le="0.05"}"#] == 1)
        #expect(after[#"twfeed_poll_duration_seconds_bucket{feed="home",le="0.25"}"#] == 2)

        let other = Scrape(TwfeedMetrics().exposition(stored: .init()))
        #expect(other[#"twfeed_poll_requests_total{feed="home",outcome="ok"}"#] == 0)
    }
}
