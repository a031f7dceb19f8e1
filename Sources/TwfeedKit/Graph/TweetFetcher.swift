import Foundation
import Logging
import ServiceLifecycle
import TwfeedBilling
import TwfeedCore
import TwfeedStore

/// Reads the posts twfeed lacks (faults) by id: what someone looked at (a page,
/// `twfeed show`, `twfeed fetch`), and after each poll what the newest posts of each feed
/// point at (the prefetch: quoted posts, reposted originals, the parents of replies up
/// to `graph.prefetchDepth`). Up to 100 ids a request, through the billing gate as
/// `lookups`, the source the budget serves last; what it finds is stored with its cost
/// in one transaction, with the authors the answer left out (`AuthorLookup`, as a poll's
/// page: when their lookup is refused for money, the posts are stored without them and
/// the fetcher waits), and what the API calls gone is remembered for a day.
package struct TweetFetcher: Service {
    let api: any TwitterAPI
    let database: AppDatabase
    let clock: any WallClock
    let logger: Logger
    let terms: BillingTerms
    let gate: BillingGate?
    let feeds: [Feed]
    let prefetchDepth: Int
    /// Buys the authors a lookup's answer left out, charged to `lookups`, before it is
    /// stored; nil: none is bought (tests of the fetch alone).
    let authors: AuthorLookup?
    /// Rung by a look (`FetchRequester`, the wake socket) and after each poll.
    package let doorbell: Doorbell

    /// How many of each feed's newest posts the prefetch looks at: the reader's first page.
    static let prefetchWindow = 50
    /// When nothing rings, the fetcher still looks this often.
    static let idleInterval: TimeInterval = 3_600
    /// After a failure other than a hold (the network, a malformed answer).
    static let retryAfter: TimeInterval = 300

    package init(
        api: any TwitterAPI,
        database: AppDatabase,
        clock: any WallClock,
        logger: Logger,
        terms: BillingTerms,
        gate: BillingGate?,
        feeds: [Feed],
        prefetchDepth: Int,
        authors: AuthorLookup? = nil,
        doorbell: Doorbell = Doorbell()
    ) {
        self.api = api
        self.database = database
        self.clock = clock
        self.logger = logger
        self.terms = terms
        self.gate = gate
        self.feeds = feeds
        self.prefetchDepth = prefetchDepth
        self.doorbell = doorbell
        self.authors = authors
    }

    package func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                var wake = clock.now().addingTimeInterval(Self.idleInterval)
                do {
                    if let until = try await cycle() { wake = min(wake, until) }
                } catch is CancellationError {
                    return
                } catch {
                    logger.error("fetch.failed", metadata: ["error": "\((error as? TwfeedError)?.message ?? "\(error)")"])
                    wake = clock.now().addingTimeInterval(Self.retryAfter)
                }
                await doorbell.wait(until: wake, clock: clock)
            }
        }
    }

    /// The prefetch and the queue, again while a round stores parents whose own parents
    /// are within `graph.prefetchDepth` (each round reaches one step further up). Returns
    /// when to try again when the gate holds.
    package func cycle() async throws -> Date? {
        for _ in 0...max(prefetchDepth, 1) {
            let asked = try await prefetch()
            if let until = try await fetchPending() { return until }
            if asked == 0 { break }
        }
        return nil
    }

    /// Asks for what the newest posts of each feed point at and twfeed lacks. Returns
    /// how many posts were newly asked for.
    @discardableResult
    package func prefetch() async throws -> Int {
        guard prefetchDepth > 0 else { return 0 }
        var ids: [TweetID] = []
        for feed in feeds {
            // A page's worth of reads (a few hundred key lookups): short enough to run here.
            for item in try await database.feedItems(feed, limit: Self.prefetchWindow) {
                ids += item.faults.filter { item.unavailable[$0] == nil }
                if let parent = item.inReplyTo, parent.stored, prefetchDepth > 1,
                    let missing = try await database.missingAncestor(of: parent.id, depth: prefetchDepth - 1)
                {
                    ids.append(missing)
                }
            }
        }
        return try await database.requestFetch(ids, reason: .prefetch, now: clock.now())
    }

    /// Fetches the queue batch by batch until it is empty (nil) or the gate holds the
    /// lookups (when to try again).
    package func fetchPending() async throws -> Date? {
        // How far up from a looked-at post each parent asked for lies: a thread is walked
        // as far as a conversation shows (`Conversation.maxDepth`), no further.
        var steps: [TweetID: Int] = [:]
        while !Task.isCancelled {
            let pending = try await database.pendingFetches(limit: LookupResult.maxIDs, now: clock.now())
            guard !pending.isEmpty else { return nil }
            var batch = pending.map(\.id)
            if let gate {
                switch try await gate.admit(.lookups, perPost: terms.worstCase(perPostOf: .postRead), posts: 1...pending.count) {
                case .hold(let hold):
                    logger.debug("fetch.held", metadata: ["posts": "\(pending.count)", "until": "\(hold.until)", "reason": "\(hold)"])
                    return hold.until
                case .go(let maxPosts):
                    batch = Array(batch.prefix(maxPosts ?? batch.count))
                }
            }
            var result: LookupResult
            var bill: BillableAnswer
            var bought = AuthorLookup.Outcome()
            do {
                result = try await api.tweets(ids: batch)
                try await gate?.answered(.lookups)
                bill = terms.bill(lookup: result)
                if let authors { bought = try await authors.complete(&result.page, bill: &bill, for: .lookups) }
            } catch let error as APIError {
                await gate?.release(.lookups)
                if let refusal = error.refusal, let gate {
                    let hold = try await gate.refused(refusal, source: .lookups)
                    logger.debug("fetch.held", metadata: ["posts": "\(batch.count)", "until": "\(hold.until)", "reason": "\(hold)"])
                    return hold.until
                }
                throw error
            } catch {
                await gate?.release(.lookups)
                throw error
            }
            // An id the answer neither holds nor calls gone is not asked for again today either.
            let found = Set(result.page.tweets.map(\.id)).union(result.page.referencedTweets.map(\.id))
            var unavailable = result.unavailable
            for id in batch where !found.contains(id) && unavailable[id] == nil { unavailable[id] = "not returned by the API" }
            try await database.storeLookup(
                found: result.page,
                unavailable: unavailable,
                asked: batch,
                now: clock.now(),
                bill: bill,
                prices: terms.prices
            )
            await gate?.release(.lookups)
            if bought.lookedUp + bought.skipped > 0 {
                logger.debug(
                    "fetch.authors",
                    metadata: ["wanted": "\(bought.wanted)", "looked_up": "\(bought.lookedUp)", "skipped": "\(bought.skipped)"]
                )
            }
            // Someone looked at these: a reply's whole way up is theirs to see, one step a round.
            let looked = Set(pending.filter { $0.reason == .asked }.map(\.id)).intersection(batch)
            // (v2 sends a post's parent along: the first post missing may lie further up.)
            var parents: [TweetID] = []
            for tweet in result.page.tweets where looked.contains(tweet.id) {
                let step = steps[tweet.id] ?? 0
                guard step < Conversation.maxDepth,
                    let missing = try await database.missingAncestor(of: tweet.id, depth: Conversation.maxDepth - step)
                else { continue }
                steps[missing] = step + 1
                parents.append(missing)
            }
            try await database.requestFetch(parents, reason: .asked, now: clock.now())
            logger.info(
                "fetch.done",
                metadata: ["asked": "\(batch.count)", "found": "\(found.intersection(batch).count)", "unavailable": "\(unavailable.count)"]
            )
            if let hold = bought.hold {
                // The posts are stored; the lookup of their authors was refused: wait.
                logger.debug("fetch.held", metadata: ["posts": "\(batch.count)", "until": "\(hold.until)", "reason": "\(hold)"])
                return hold.until
            }
        }
        return nil
    }
}
