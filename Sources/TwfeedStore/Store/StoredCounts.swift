import Foundation
import GRDB
import TwfeedBilling
import TwfeedCore

/// What the status reads from the store (`twfeed status`, `/healthz`, a page's header,
/// the daemon's snapshot), read in one transaction: each feed's count and schedule, the
/// outbox, the image cache's totals, the account, and the ledger's figures. The status
/// builds its report from these; the store knows no report.
package struct StoredCounts: Sendable {
    package struct FeedEntry: Sendable {
        package var stats: FeedStats
        package var sync: SyncState
    }

    /// Each feed's, when asked for (`Request.feeds`); empty otherwise.
    package var feeds: [Feed: FeedEntry] = [:]
    package var outbox: [OutboxState: Int] = [:]
    /// How long the oldest status waiting to go out has waited, in seconds.
    package var oldestPendingAge: Double?
    package var imageFiles = 0
    package var imageBytes: Int64 = 0
    package var account: Account?
    package var spendTotals: [SpendRow] = []
    package var billingStatus: BillingStatus?
    package var endpointRefusals: [EndpointRefusal] = []
    package var gapCounts: [Feed: Int] = [:]
    package var spentToday = MicroUSD(micros: 0)
    package var spentCycle = MicroUSD(micros: 0)

    /// What to read: the ledger's days are the caller's (the billing cycle is the config's).
    package struct Request: Sendable {
        package var now: Date
        /// Whether to count the feeds (the costly part of a big store's status).
        package var feeds: Bool
        /// The days, `YYYY-MM-DD`, from (included) and before (excluded).
        package var today: (from: String, before: String)
        package var cycle: (from: String, before: String)

        package init(now: Date, feeds: Bool, today: (from: String, before: String), cycle: (from: String, before: String)) {
            self.now = now
            self.feeds = feeds
            self.today = today
            self.cycle = cycle
        }
    }
}

extension StoreReading {
    package func storedCounts(_ request: StoredCounts.Request) async throws -> StoredCounts {
        try await read { db in try AppDatabase.storedCounts(request, db) }
    }
}

extension AppDatabase {
    static func storedCounts(_ request: StoredCounts.Request, _ db: Database) throws -> StoredCounts {
        var counts = StoredCounts()
        if request.feeds {
            let owner = try owner(.signedIn, db)
            for feed in Feed.polled {
                counts.feeds[feed] = .init(stats: try feedStats(feed, db), sync: try syncState(feed, account: owner, db))
            }
        }
        (counts.outbox, counts.oldestPendingAge) = try outboxCounts(now: request.now, db)
        (counts.imageFiles, counts.imageBytes) = try imageCacheTotals(db)
        counts.account = try account(db)
        counts.spendTotals = try spendTotals(db)
        counts.billingStatus = try billingStatus(db)
        counts.endpointRefusals = try endpointRefusals(db)
        counts.gapCounts = try gapCounts(db)
        counts.spentToday = try spent(from: request.today.from, before: request.today.before, db)
        counts.spentCycle = try spent(from: request.cycle.from, before: request.cycle.before, db)
        return counts
    }
}
