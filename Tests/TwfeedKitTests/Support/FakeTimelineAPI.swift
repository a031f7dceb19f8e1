import Foundation
import Synchronization
@testable import TwfeedKit

/// An in-memory API with v2 paging semantics (exclusive since/until, page tokens),
/// per-feed rate limits on an injected clock, and scripted failures.
final class FakeTimelineAPI: TwitterAPI {
    struct State {
        var tweets: [Feed: [TweetID]] = [:]
        var requests: [(feed: Feed, query: TimelineQuery)] = []
        var failures: [APIError] = []
        var failOnRequest: [Int: APIError] = [:]
        var limit = 1000
        var window = 900.0
        var used: [Feed: (count: Int, resetAt: Date)] = [:]
        var meCalls = 0
        /// Who the credentials sign in as (`me()`).
        var account = FakeTimelineAPI.me
        var posted: [(text: String, replyTo: TweetID?)] = []
        var postFailures: [APIError] = []
        /// Accept the status, then fail as if the answer were lost.
        var loseNextAnswer = false
        var nextPostID: Int64 = 1_900_000_000_000_000_000
        /// The account's own tweets, as `ownTweets` serves them (posted ones included).
        var ownTweets: [Tweet] = []
        var ownTweetsCalls = 0
        var ownTweetsFailures: [APIError] = []
        /// This many more reads of the own tweets see none (a timeline that lags).
        var ownTweetsLagging = 0
        /// The API's duplicate check (403 code 187 for a text already posted); off: none.
        var duplicateCheck = true
    }

    let state = Mutex(State())
    let clock: ManualClock
    let pageSize: Int
    let sinceIDSupported: Bool
    var dialect: TwfeedConfig.Dialect { .v2 }

    init(clock: ManualClock, pageSize: Int = 100, sinceIDSupported: Bool = true) {
        self.clock = clock
        self.pageSize = pageSize
        self.sinceIDSupported = sinceIDSupported
    }

    static let me = Author(id: UserID(42), username: "me", name: "Me")
    static let firstID: Int64 = 1_850_000_000_000_000_000

    /// Adds `count` tweets newer than any so far to the feed.
    @discardableResult
    func add(_ count: Int, to feed: Feed) -> [TweetID] {
        state.withLock { state in
            let top = state.tweets.values.flatMap { $0 }.max()?.rawValue ?? Self.firstID
            let ids = (1 ... max(count, 1)).prefix(count).map { TweetID(top + Int64($0)) }
            state.tweets[feed, default: []].append(contentsOf: ids)
            return ids
        }
    }

    var requestCount: Int { state.withLock { $0.requests.count } }
    var queries: [TimelineQuery] { state.withLock { $0.requests.map(\.query) } }

    func failNext(_ error: APIError) { state.withLock { $0.failures.append(error) } }
    func fail(onRequest number: Int, _ error: APIError) { state.withLock { $0.failOnRequest[number] = error } }
    func setLimit(_ limit: Int, window: Double) { state.withLock { $0.limit = limit; $0.window = window } }

    func me() async throws -> Author {
        state.withLock { state in
            state.meCalls += 1
            return state.account
        }
    }

    func supportsSinceID(_ feed: Feed) -> Bool { sinceIDSupported }

    var posted: [String] { state.withLock { $0.posted.map(\.text) } }
    func failNextPost(_ error: APIError) { state.withLock { $0.postFailures.append(error) } }

    func post(text: String, replyTo: TweetID?) async throws -> TweetID {
        try state.withLock { state in
            if !state.postFailures.isEmpty { throw state.postFailures.removeFirst() }
            if state.duplicateCheck, state.posted.contains(where: { $0.text == text }) {
                throw APIError(kind: .rejected, status: 403, code: 187, message: "Status is a duplicate.")
            }
            state.posted.append((text, replyTo))
            state.nextPostID += 1
            // The API's created_at: whole seconds, cut down.
            let created = Date(timeIntervalSince1970: clock.now().timeIntervalSince1970.rounded(.down))
            state.ownTweets.append(Tweet(id: TweetID(state.nextPostID), authorID: Self.me.id, createdAt: created, text: text, inReplyToID: replyTo))
            if state.loseNextAnswer {
                state.loseNextAnswer = false
                throw APIError(kind: .transient, status: 0, message: "connectionReset: Connection reset by peer")
            }
            return TweetID(state.nextPostID)
        }
    }

    func ownPosts(userID: UserID) async throws -> TimelinePage {
        let tweets: [Tweet] = try state.withLock { state in
            state.ownTweetsCalls += 1
            if !state.ownTweetsFailures.isEmpty { throw state.ownTweetsFailures.removeFirst() }
            if state.ownTweetsLagging > 0 { state.ownTweetsLagging -= 1; return [] }
            return state.ownTweets.sorted { $0.id > $1.id }
        }
        return TimelinePage(tweets: tweets, authors: tweets.isEmpty ? [] : [Self.me], nextPageToken: nil)
    }

    func timeline(_ feed: Feed, userID: UserID, query: TimelineQuery) async throws -> TimelinePage {
        let now = clock.now()
        return try state.withLock { state in
            state.requests.append((feed, query))
            var usage = state.used[feed] ?? (0, now.addingTimeInterval(state.window))
            if now >= usage.resetAt { usage = (0, now.addingTimeInterval(state.window)) }
            usage.count += 1
            state.used[feed] = usage
            let rateLimit = RateLimit(limit: state.limit, remaining: max(0, state.limit - usage.count), resetAt: usage.resetAt)
            if usage.count > state.limit {
                throw APIError(kind: .rateLimited, status: 429, message: "Too Many Requests", rateLimit: rateLimit)
            }
            if let error = state.failOnRequest.removeValue(forKey: state.requests.count) { throw error }
            if !state.failures.isEmpty { throw state.failures.removeFirst() }
            var ids = (state.tweets[feed] ?? []).sorted(by: >)
            if sinceIDSupported {
                if let since = query.sinceID { ids = ids.filter { $0 > since } }
                if let until = query.untilID { ids = ids.filter { $0 < until } }
            }
            if let token = query.pageToken, let below = TweetID(token) { ids = ids.filter { $0 < below } }
            let page = Array(ids.prefix(pageSize))
            let next = ids.count > pageSize ? page.last?.description : nil
            let tweets = page.map { id in
                Tweet(id: id, authorID: UserID(7), createdAt: Date(timeIntervalSince1970: 1_700_000_000), text: "tweet \(id)")
            }
            return TimelinePage(
                tweets: tweets, authors: [Author(id: UserID(7), username: "someone", name: "Some One")],
                nextPageToken: next, rateLimit: rateLimit)
        }
    }
}

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

    func syncer(_ feed: Feed = .home, interval: Double = 120, token: String = "token") -> FeedSyncer {
        FeedSyncer(
            feed: feed, api: api,
            account: AccountResolver(api: api, database: database, accessToken: token, logger: logger),
            database: database, clock: clock, interval: interval, logger: logger)
    }
}

import Logging
import TwfeedTesting
@testable import TwfeedCore
@testable import TwfeedStore
