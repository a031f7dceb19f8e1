import Foundation
import Logging
import TwfeedTesting
@testable import TwfeedKit
@testable import TwfeedCore
@testable import TwfeedStore

/// Builds a syncer over an in-memory database, the fake API and a manual clock.
struct SyncFixture {
    let clock = ManualClock()
    let api: FakeTimelineAPI
    let database: AppDatabase
    let sink = MemorySink()
    let logger: Logger

    init(pageSize: Int = 100, sinceIDSupported: Bool = true) throws {
        api = FakeTimelineAPI(clock: clock, pageSize: pageSize, sinceIDSupported: sinceIDSupported)
        database = try AppDatabase.inMemory()
        logger = Logger(label: "test") { [sink] _ in EventLogHandler(level: .debug, format: .logfmt, sink: sink) }
    }

    func syncer(_ feed: Feed = .home, interval: Double = 120, token: String = "token",
                retweetsCheck: RetweetsCheck = .repostsOfMe) -> FeedSyncer {
        FeedSyncer(
            feed: feed, api: api,
            account: AccountResolver(api: api, database: database, accessToken: token, logger: logger),
            database: database, clock: clock, interval: interval, retweetsCheck: retweetsCheck, logger: logger)
    }

    /// The retweets feed as the daemon builds it with `api.ownsApp` in v2: the repost counts
    /// of my own originals (no since_id on the feed's endpoint), the deep check weekly.
    func ownedRetweetsSyncer(gate: BillingGate? = nil) -> FeedSyncer {
        FeedSyncer(
            feed: .retweets, api: api,
            account: AccountResolver(api: api, database: database, accessToken: "token", logger: logger),
            database: database, clock: clock, interval: 600, fullWalkHours: 168, retweetsCheck: .ownOriginals,
            logger: logger, gate: gate)
    }

    /// An outbox flusher over this fixture (the account stored first, so a sent status is
    /// stored as ours): flushes every 60 s, expires after 24 h.
    func outboxFlusher(gate: BillingGate? = nil) async throws -> OutboxFlusher {
        try await database.saveAccount(Account(userID: FakeTimelineAPI.me.id))
        return OutboxFlusher(
            api: api, database: database, clock: clock, doorbell: Doorbell(),
            flushInterval: 60, maxAgeHours: 24, logger: logger, gate: gate)
    }
}
