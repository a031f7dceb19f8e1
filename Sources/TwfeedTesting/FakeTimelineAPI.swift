import Foundation
import Synchronization
import TwfeedCore
import TwfeedKit

/// An in-memory API with v2 paging semantics (exclusive since/until, page tokens),
/// per-feed rate limits on an injected clock, and scripted failures.
package final class FakeTimelineAPI: TwitterAPI {
    package struct State {
        package var tweets: [Feed: [TweetID]] = [:]
        package var requests: [(feed: Feed, query: TimelineQuery)] = []
        package var failures: [APIError] = []
        package var failOnRequest: [Int: APIError] = [:]
        package var limit = 1000
        package var window = 900.0
        package var used: [Feed: (count: Int, resetAt: Date)] = [:]
        package var meCalls = 0
        /// Errors the next `me()` calls throw, first first.
        package var meFailures: [APIError] = []
        /// Who the credentials sign in as (`me()`).
        package var account = FakeTimelineAPI.me
        package var posted: [(text: String, replyTo: TweetID?, mediaIDs: [String])] = []
        package var postFailures: [APIError] = []
        /// Accept the status, then fail as if the answer were lost.
        package var loseNextAnswer = false
        package var nextPostID: Int64 = 1_900_000_000_000_000_000
        /// The account's own tweets, as `ownTweets` serves them (posted ones included).
        package var ownTweets: [Tweet] = []
        package var ownTweetsCalls = 0
        /// The `sinceID` of each own-posts read, in order.
        package var ownPostsSinceIDs: [TweetID?] = []
        package var ownTweetsFailures: [APIError] = []
        /// This many more reads of the own tweets see none (a timeline that lags).
        package var ownTweetsLagging = 0
        /// The API's duplicate check (403 code 187 for a text already posted); off: none.
        package var duplicateCheck = true
        /// How often each own tweet was reposted, as `ownOriginals` reports it.
        package var retweetCounts: [TweetID: Int] = [:]
        /// Pages of own originals served, and the users looked up by `users(ids:)`.
        package var ownOriginalsCalls = 0
        package var userLookups: [[UserID]] = []
        /// Users `users(ids:)` knows (besides the account).
        package var users: [UserID: Author] = [:]
        /// Failures for the next `users(ids:)` calls, in order.
        package var userLookupFailures: [APIError] = []
        /// Whether answers may leave authors out (`authorsOnRequest`, as v2 for twfeed).
        package var authorsOnRequest = false
        /// Users `tweets(ids:)` leaves out of its answer though their posts are in it (an
        /// answer that omits a user); `users(ids:)` still knows them.
        package var lookupLeavesOut: Set<UserID> = []
        /// Posts `tweets(ids:)` finds, by id (their authors come from `users`).
        package var lookupTweets: [TweetID: Tweet] = [:]
        /// Ids `tweets(ids:)` reports gone, with the API's reason.
        package var unavailable: [TweetID: String] = [:]
        /// The ids of each `tweets(ids:)` call, in order.
        package var lookups: [[TweetID]] = []
        /// Failures for the next `tweets(ids:)` calls, in order.
        package var lookupFailures: [APIError] = []
        /// This many more timeline pages asked for below an id (`untilID`: a gap read) come
        /// back empty with a token that goes on (posts removed after the page was cut, as
        /// v2 may answer).
        package var emptyPagesWithToken = 0
        /// Posts cut into a timeline page and then left out of the answer (deleted or
        /// excluded after the page was cut, as v2 answers): a page of only these comes
        /// back empty with a token that goes on.
        package var removedAfterCut: Set<TweetID> = []
        /// The media side (`FakeTimelineAPI+Media`): uploads, alt texts, deletions.
        package var media = FakeMedia()
    }

    package let state = Mutex(State())
    package let clock: ManualClock
    package let pageSize: Int
    package let sinceIDSupported: Bool
    package var dialect: TwfeedConfig.Dialect { .v2 }

    package init(clock: ManualClock, pageSize: Int = 100, sinceIDSupported: Bool = true) {
        self.clock = clock
        self.pageSize = pageSize
        self.sinceIDSupported = sinceIDSupported
    }

    package static let me = Author(id: UserID(42), username: "me", name: "Me")
    package static let firstID: Int64 = 1_850_000_000_000_000_000

    /// Adds `count` tweets newer than any so far to the feed.
    @discardableResult
    package func add(_ count: Int, to feed: Feed) -> [TweetID] {
        state.withLock { state in
            let top = state.tweets.values.flatMap { $0 }.max()?.rawValue ?? Self.firstID
            let ids = (1...max(count, 1)).prefix(count).map { TweetID(top + Int64($0)) }
            state.tweets[feed, default: []].append(contentsOf: ids)
            return ids
        }
    }

    package var requestCount: Int { state.withLock { $0.requests.count } }
    package var queries: [TimelineQuery] { state.withLock { $0.requests.map(\.query) } }

    package func failNext(_ error: APIError) { state.withLock { $0.failures.append(error) } }
    package func fail(onRequest number: Int, _ error: APIError) { state.withLock { $0.failOnRequest[number] = error } }
    package func setLimit(_ limit: Int, window: Double) {
        state.withLock {
            $0.limit = limit
            $0.window = window
        }
    }

    package func me() async throws -> Author {
        try state.withLock { state in
            state.meCalls += 1
            if !state.meFailures.isEmpty { throw state.meFailures.removeFirst() }
            return state.account
        }
    }

    package func supportsSinceID(_ feed: Feed) -> Bool { sinceIDSupported }

    package var posted: [String] { state.withLock { $0.posted.map(\.text) } }
    package func failNextPost(_ error: APIError) { state.withLock { $0.postFailures.append(error) } }

    package func post(text: String, replyTo: TweetID?, mediaIDs: [String]) async throws -> TweetID {
        let now = clock.now()
        return try state.withLock { state in
            if !state.postFailures.isEmpty { throw state.postFailures.removeFirst() }
            if state.duplicateCheck, mediaIDs.isEmpty, state.posted.contains(where: { $0.text == text }) {
                throw APIError(kind: .rejected, status: 403, code: 187, message: "Status is a duplicate.")
            }
            if let bad = mediaIDs.first(where: { !state.media.isValid($0, now: now) }) {
                throw APIError(kind: .rejected, status: 400, message: "media id \(bad) is unknown or expired")
            }
            state.posted.append((text, replyTo, mediaIDs))
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

    package func ownPosts(userID: UserID, sinceID: TweetID?) async throws -> TimelinePage {
        let tweets: [Tweet] = try state.withLock { state in
            state.ownTweetsCalls += 1
            if !state.ownTweetsFailures.isEmpty { throw state.ownTweetsFailures.removeFirst() }
            if state.ownTweetsLagging > 0 {
                state.ownTweetsLagging -= 1
                return []
            }
            state.ownPostsSinceIDs.append(sinceID)
            return state.ownTweets.filter { sinceID == nil || $0.id > sinceID! }.sorted { $0.id > $1.id }
        }
        return TimelinePage(tweets: tweets, authors: tweets.isEmpty ? [] : [Self.me], nextPageToken: nil)
    }

    /// Whether answers may leave authors out, so the caller looks them up (`State.authorsOnRequest`).
    package var authorsOnRequest: Bool { state.withLock { $0.authorsOnRequest } }

    package func users(ids: [UserID]) async throws -> (authors: [Author], rateLimit: RateLimit?) {
        try state.withLock { state in
            state.userLookups.append(ids)
            if !state.userLookupFailures.isEmpty { throw state.userLookupFailures.removeFirst() }
            return (ids.compactMap { $0 == state.account.id ? state.account : state.users[$0] }, nil)
        }
    }

    /// Posts by id, as a lookup finds them: those in `lookupTweets` (newest first, with
    /// the posts they point at that are known too, and their authors from `users` but
    /// those in `lookupLeavesOut`), those in `unavailable` with their reason; unknown ids
    /// are in neither, as the API leaves out what it says nothing about. Each call is
    /// recorded in `lookups`.
    package func tweets(ids: [TweetID]) async throws -> LookupResult {
        try state.withLock { state in
            state.lookups.append(ids)
            if !state.lookupFailures.isEmpty { throw state.lookupFailures.removeFirst() }
            let found = ids.compactMap { state.lookupTweets[$0] }.sorted { $0.id > $1.id }
            let foundIDs = Set(found.map(\.id))
            let pointedAt = Set(found.flatMap { [$0.inReplyToID, $0.quotedID, $0.retweetOfID].compactMap { $0 } })
            let referenced = pointedAt.subtracting(foundIDs).compactMap { state.lookupTweets[$0] }.sorted { $0.id > $1.id }
            let authorIDs = Set((found + referenced).map(\.authorID)).subtracting(state.lookupLeavesOut)
            let authors = authorIDs.compactMap { $0 == state.account.id ? state.account : state.users[$0] }
            var unavailable: [TweetID: String] = [:]
            for id in ids { if let reason = state.unavailable[id] { unavailable[id] = reason } }
            return LookupResult(
                page: TimelinePage(tweets: found, referencedTweets: referenced, authors: authors, nextPageToken: nil),
                unavailable: unavailable
            )
        }
    }

    /// The account reposts `count` posts now: its newest own posts, each a repost (of
    /// another's post), which the own originals leave out after the page is cut. Oldest
    /// first.
    @discardableResult
    package func addOwnReposts(_ count: Int) -> [TweetID] {
        state.withLock { state in
            let top = max(state.ownTweets.map(\.id.rawValue).max() ?? 0, Self.ownRepostsFloor)
            let ids = (1...max(count, 1)).prefix(count).map { TweetID(top + Int64($0)) }
            for id in ids {
                state.ownTweets.append(
                    Tweet(
                        id: id,
                        authorID: state.account.id,
                        createdAt: Date(timeIntervalSince1970: 1_700_000_000),
                        text: "RT @someone: a post",
                        retweetOfID: TweetID(Self.firstID)
                    )
                )
            }
            return ids
        }
    }

    /// Where the account's reposts' ids start: above the feeds' (`add`), below the posts
    /// it makes (`post`).
    static let ownRepostsFloor: Int64 = 1_890_000_000_000_000_000

    /// Adds `count` own originals older than any tweet so far (months-old posts), oldest first.
    @discardableResult
    package func addOwnOriginals(_ count: Int) -> [TweetID] {
        state.withLock { state in
            let bottom = state.ownTweets.map(\.id.rawValue).min() ?? Self.firstID
            let ids = (1...max(count, 1)).prefix(count).map { TweetID(bottom - Int64(count) - 1 + Int64($0)) }
            for id in ids {
                state.ownTweets.append(
                    Tweet(id: id, authorID: state.account.id, createdAt: Date(timeIntervalSince1970: 1_690_000_000), text: "mine \(id)")
                )
            }
            return ids
        }
    }

    /// The own posts without the account's reposts, as v2 `exclude=retweets` answers: the
    /// page is cut from every own post first and the reposts removed after, so a run of
    /// reposts (`addOwnReposts`) comes back short, or empty with a token that goes on.
    package func ownOriginals(userID: UserID, query: TimelineQuery) async throws -> TimelinePage {
        try state.withLock { state in
            state.ownOriginalsCalls += 1
            if !state.ownTweetsFailures.isEmpty { throw state.ownTweetsFailures.removeFirst() }
            var tweets = state.ownTweets.sorted { $0.id > $1.id }
            if let token = query.pageToken, let below = TweetID(token) { tweets = tweets.filter { $0.id < below } }
            let cut = Array(tweets.prefix(pageSize))
            let page = cut.filter { $0.retweetOfID == nil }
            var result = TimelinePage(
                tweets: page,
                authors: page.isEmpty ? [] : [state.account],
                nextPageToken: tweets.count > pageSize ? cut.last?.id.description : nil
            )
            for tweet in page { result.retweetCounts[tweet.id] = state.retweetCounts[tweet.id] ?? 0 }
            return result
        }
    }

    package func timeline(_ feed: Feed, userID: UserID, query: TimelineQuery) async throws -> TimelinePage {
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
            if state.emptyPagesWithToken > 0, query.untilID != nil {
                state.emptyPagesWithToken -= 1
                return TimelinePage(tweets: [], authors: [], nextPageToken: query.pageToken ?? String(Int64.max), rateLimit: rateLimit)
            }
            var ids = (state.tweets[feed] ?? []).sorted(by: >)
            if sinceIDSupported {
                if let since = query.sinceID { ids = ids.filter { $0 > since } }
                if let until = query.untilID { ids = ids.filter { $0 < until } }
            }
            if let token = query.pageToken, let below = TweetID(token) { ids = ids.filter { $0 < below } }
            let cut = Array(ids.prefix(pageSize))
            let next = ids.count > pageSize ? cut.last?.description : nil
            let tweets = cut.filter { !state.removedAfterCut.contains($0) }.map { id in
                Tweet(id: id, authorID: UserID(7), createdAt: Date(timeIntervalSince1970: 1_700_000_000), text: "tweet \(id)")
            }
            return TimelinePage(
                tweets: tweets,
                authors: [Author(id: UserID(7), username: "someone", name: "Some One")],
                nextPageToken: next,
                rateLimit: rateLimit
            )
        }
    }
}
