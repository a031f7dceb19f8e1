import Foundation
import Logging
import TwfeedBase
import TwfeedCore
import TwfeedStore

/// Brings one feed up to date: the sync controller between the API and the store.
///
/// A range is every tweet newer than the stored newest id. It is paged from the top
/// down, each page committed with the range's progress (`pendingTop`, `pendingBottom`),
/// and the feed's newest id moves to the range's top only once the bottom is reached.
/// So a failure or a kill at any point loses nothing: the next poll resumes below the
/// last committed page, and upserts make any repeat harmless.
package struct FeedSyncer: Sendable {
    package let feed: Feed
    let api: any TwitterAPI
    let account: AccountResolver
    let database: AppDatabase
    let clock: any WallClock
    let interval: Double
    /// Retweets only: the time between two full walks (`feeds.retweets.fullWalkHours`).
    let fullWalkInterval: Double
    /// Retweets only: what the full walk reads (see `RetweetsCheck`).
    let retweetsCheck: RetweetsCheck
    /// Buys the authors a page left out (v2), charged to the feed, before it is stored;
    /// nil: none is bought (tests of the sync alone).
    let authors: AuthorLookup?
    let logger: Logger
    /// What the API charges; each page's cost is recorded with the page.
    let terms: BillingTerms
    /// Asked before every request (budget, billing state, endpoints refused); nil when
    /// nothing is billed (tests of the sync alone).
    let gate: BillingGate?
    /// A safety net against a server that never stops handing out page tokens.
    var maxPagesPerPoll = 100

    package init(
        feed: Feed,
        api: any TwitterAPI,
        account: AccountResolver,
        database: AppDatabase,
        clock: any WallClock,
        interval: Double,
        fullWalkHours: Int = 24,
        retweetsCheck: RetweetsCheck = .repostsOfMe,
        authors: AuthorLookup? = nil,
        logger: Logger,
        terms: BillingTerms = BillingTerms(),
        gate: BillingGate? = nil
    ) {
        self.retweetsCheck = retweetsCheck
        self.authors = authors
        self.feed = feed
        self.gate = gate
        self.terms = terms
        self.api = api
        self.account = account
        self.database = database
        self.clock = clock
        self.interval = interval
        fullWalkInterval = Double(fullWalkHours) * 3600
        self.logger = logger
    }

    /// Stores a page and what the API charged for it, in one transaction: `bill` when
    /// given (a page read from another endpoint than the feed's), else the feed's page.
    /// Authors the page left out and the store lacks, or has not refreshed within
    /// `images.revalidateDays`, are looked up first and stored and charged with it.
    func storePage(_ page: TimelinePage, state: SyncState, bill: BillableAnswer? = nil) async throws -> Int {
        var page = page
        var bill = bill ?? terms.bill(page, feed: feed)
        try await completeAuthors(&page, bill: &bill)
        return try await database.storePage(page, feed: feed, state: state, now: clock.now(), bill: bill, prices: terms.prices)
    }

    /// The authors the page left out, added to it and to its bill (`AuthorLookup`). A
    /// billing refusal of their lookup holds the poll before the page is stored: it is
    /// read again once the hold ends, and its authors with it.
    func completeAuthors(_ page: inout TimelinePage, bill: inout BillableAnswer) async throws {
        guard let authors else { return }
        let outcome = try await authors.complete(&page, bill: &bill, for: source)
        if outcome.lookedUp + outcome.skipped > 0 {
            logger.debug(
                "poll.authors",
                metadata: [
                    "feed": "\(feed.rawValue)", "wanted": "\(outcome.wanted)", "looked_up": "\(outcome.lookedUp)",
                    "skipped": "\(outcome.skipped)",
                ]
            )
        }
        if let hold = outcome.hold { throw hold }
    }

    /// Polls once and records the outcome, including when to poll next.
    /// `onProgress` is called after each stored page (the watchdog counts it as progress).
    @discardableResult
    package func poll(onProgress: @Sendable () -> Void = {}) async throws -> PollOutcome {
        do {
            let outcome = try await pollOnce(onProgress: onProgress)
            await gate?.release(source)
            return outcome
        } catch {
            await gate?.release(source)
            throw error
        }
    }

    private func pollOnce(onProgress: @Sendable () -> Void) async throws -> PollOutcome {
        var state = try await database.syncState(feed)
        let started = clock.now()
        var outcome = PollProgress()
        if let wait = rateLimitWait(state, now: started) {
            state.nextPollAt = wait
            try await database.saveSyncState(state)
            logger.info("poll.deferred", metadata: ["feed": "\(feed.rawValue)", "until": "\(Timestamp.iso8601(wait))", "reason": "rate-limit"])
            return .paused(outcome, until: wait)
        }
        state.lastPollAt = started
        logger.debug("poll.start", metadata: ["feed": "\(feed.rawValue)", "since_id": "\(state.newestID?.description ?? "none")"])
        do {
            let userID = try await account.userID()
            if state.account != .account(userID) {
                // The account became known only now (a first sign-in) or changed since
                // the state was read: its own positions, never another account's.
                state = try await database.syncState(feed, account: .account(userID))
                state.lastPollAt = started
            }
            if feed == .retweets {
                try await pollRetweets(&state, userID: userID, outcome: &outcome, onProgress: onProgress)
            } else if api.supportsSinceID(feed) {
                try await syncRange(&state, userID: userID, outcome: &outcome, onProgress: onProgress)
                if outcome.complete {
                    try await readOnIntoBackfillGap(&state, userID: userID, outcome: &outcome, onProgress: onProgress)
                }
            } else {
                try await walk(&state, userID: userID, outcome: &outcome, onProgress: onProgress)
            }
            let now = clock.now()
            state.lastSuccessAt = now
            state.lastError = nil
            state.failures = 0
            let next = outcome.complete ? now.addingTimeInterval(interval) : (rateLimitWait(state, now: now) ?? now)
            state.nextPollAt = next
            try await database.saveSyncState(state)
            logger.info(
                "poll.done",
                metadata: [
                    "feed": "\(feed.rawValue)", "new": "\(outcome.newTweets)", "pages": "\(outcome.pages)",
                    "requests": "\(outcome.requests)", "complete": "\(outcome.complete)",
                    "ms": "\(Int(now.timeIntervalSince(started) * 1000))",
                ]
            )
            return outcome.complete ? .caughtUp(outcome, next: next) : .paused(outcome, until: next)
        } catch let hold as BillingGate.Hold {
            try await recordHold(hold, account: state.account, started: started)
            return .held(hold, outcome)
        } catch let error as APIError where error.refusal != nil && gate != nil {
            // A billing refusal from a request outside the gated pages (the who-am-I
            // call): the same state, not a backoff.
            let hold = try await gate!.refused(error.refusal!, source: source)
            try await recordHold(hold, account: state.account, started: started)
            return .held(hold, outcome)
        } catch let error as APIError {
            // What was committed stays committed; re-read so the failure is recorded on
            // top of the range's progress.
            var failed = try await database.syncState(feed, account: state.account)
            let now = clock.now()
            failed.lastPollAt = started
            failed.lastError = error.pollFailure
            if let rateLimit = error.rateLimit?.localized(now: now) { failed.rateLimit = rateLimit }
            switch error.kind {
            case .rateLimited:
                // A reset that is missing, past or absurd must not mean "now": that
                // would be a tight loop of 429s. Wait a floor that doubles instead.
                let reset: Date
                if let usable = RateLimit.usableReset(error.rateLimit, now: now) {
                    reset = usable
                } else {
                    failed.failures += 1
                    reset = now.addingTimeInterval(RateLimit.floor.delay(afterFailures: failed.failures))
                }
                failed.rateLimit = RateLimit(limit: failed.rateLimit?.limit ?? 0, remaining: 0, resetAt: reset)
                failed.nextPollAt = reset
                logger.warning("poll.rate_limited", metadata: ["feed": "\(feed.rawValue)", "until": "\(Timestamp.iso8601(reset))"])
            case .unauthorized, .transient, .rejected:
                failed.failures += 1
                let unauthorized = error.kind == .unauthorized
                let delay = (unauthorized ? Backoff.unauthorized : .transient).delay(afterFailures: failed.failures)
                failed.nextPollAt = now.addingTimeInterval(delay)
                if unauthorized {
                    logger.error(
                        "auth.failed",
                        metadata: [
                            "feed": "\(feed.rawValue)", "status": "\(error.status)", "error": "\(error.message)",
                            "retry_in_s": "\(Int(delay))", "hint": "check the credentials file or run twfeed login",
                        ]
                    )
                } else {
                    logger.warning(
                        "poll.failed",
                        metadata: [
                            "feed": "\(feed.rawValue)", "status": "\(error.status)", "error": "\(error.message)",
                            "failures": "\(failed.failures)", "retry_in_s": "\(Int(delay))",
                        ]
                    )
                }
            }
            try await database.saveSyncState(failed)
            return .failed(error, outcome, next: failed.nextPollAt ?? now)
        }
    }

    /// Held back (the budget, a billing state, an endpoint refused): not a failure, no
    /// backoff; what was committed stays. The gate logged any change of state.
    private func recordHold(_ hold: BillingGate.Hold, account: AccountScope, started: Date) async throws {
        var held = try await database.syncState(feed, account: account)
        held.lastPollAt = started
        held.nextPollAt = hold.until
        if case .budget = hold.reason {
            held.lastError = nil
        } else {
            held.lastError = PollFailure(kind: .held, message: hold.description)
        }
        try await database.saveSyncState(held)
        logger.debug("poll.held", metadata: ["feed": "\(feed.rawValue)", "hold": "\(hold)"])
    }

    /// When the stored rate limit says no request may go out before its reset.
    func rateLimitWait(_ state: SyncState, now: Date) -> Date? {
        guard let rateLimit = state.rateLimit, rateLimit.remaining <= 0, rateLimit.resetAt > now else { return nil }
        return rateLimit.resetAt
    }

    /// since_id paging, resumable through pendingTop/pendingBottom.
    ///
    /// The next page is requested while the current one is being stored, so the
    /// network and SQLite overlap; pages are still committed strictly in order.
    func syncRange(
        _ state: inout SyncState,
        userID: UserID,
        outcome: inout PollProgress,
        onProgress: () -> Void
    ) async throws {
        let floor = state.pendingBottom
        let since = state.newestID
        func fetch(_ token: String?) -> Task<TimelinePage, any Error> {
            Task { [self] in
                try await timelinePage(TimelineQuery(sinceID: since, untilID: floor, pageToken: token), userID: userID)
            }
        }
        if rateLimitWait(state, now: clock.now()) != nil { return }
        var inFlight: Task<TimelinePage, any Error>? = fetch(nil)
        defer { inFlight?.cancel() }
        while let request = inFlight {
            let page: TimelinePage
            do {
                page = try await withTaskCancellationHandler {
                    try await request.value
                } onCancel: {
                    request.cancel()
                }
            } catch let hold as BillingGate.Hold {
                // Today's budget ends inside the range: the newest part is stored, the
                // rest is recorded as a gap, never skipped in silence.
                if case .budget = hold.reason { try await closeRangeWithGap(&state) }
                throw hold
            }
            inFlight = nil
            outcome.requests += 1
            outcome.pages += 1
            if state.pendingTop == nil { state.pendingTop = page.tweets.first?.id }
            if let oldest = page.tweets.last?.id, state.pendingTop != nil { state.pendingBottom = oldest }
            if let rateLimit = page.rateLimit?.localized(now: clock.now()) { state.rateLimit = rateLimit }
            let more = page.nextPageToken != nil
            // Under a budget the next page is asked for only once this one is paid for in
            // the ledger: the budget must see every charge before it admits another.
            let overlap = gate?.budget == nil
            func fetchNext() {
                if let next = page.nextPageToken, rateLimitWait(state, now: clock.now()) == nil, outcome.pages < maxPagesPerPoll {
                    inFlight = fetch(next)
                }
            }
            if overlap { fetchNext() }
            outcome.newTweets += try await storePage(page, state: state)
            if !overlap { fetchNext() }
            logger.debug("poll.page", metadata: ["feed": "\(feed.rawValue)", "tweets": "\(page.tweets.count)", "more": "\(more)"])
            onProgress()
            if more && inFlight == nil { return }  // paused by the rate limit or the page cap
        }
        if let top = state.pendingTop { state.newestID = max(top, state.newestID ?? top) }
        state.pendingTop = nil
        state.pendingBottom = nil
        outcome.complete = true
    }

    /// For an endpoint without since_id: walk from the newest, upserting, and stop after
    /// a page that brings nothing new: posts, every one of them stored already. An empty
    /// page is not such a page: one that carries a `next_token` had its posts removed
    /// after it was cut (x-api.md), and what lies below it may be new, so it is followed
    /// like any other. A walk cut short is marked pending and the next one goes on below
    /// where it stopped, so a first run's interrupted backfill is completed rather than
    /// forgotten.
    func walk(
        _ state: inout SyncState,
        userID: UserID,
        outcome: inout PollProgress,
        onProgress: () -> Void
    ) async throws {
        var token: String?
        var walkTop: TweetID?
        let resumeBelow = state.pendingBottom
        while true {
            if rateLimitWait(state, now: clock.now()) != nil { return }
            if outcome.pages >= maxPagesPerPoll { return }
            // Once caught up, reposts_of_me is read in small pages from the top, which cost
            // little when nothing is new (every post returned is billed, again on each UTC
            // day); its order is not documented, so an old post reposted may sit deep: the
            // own originals' repost counts find it (`pollRetweets`).
            let size = feed == .retweets && state.newestID != nil ? Self.repostsPageOnceCaughtUp : nil
            let page = try await timelinePage(TimelineQuery(pageToken: token, maxResults: size), userID: userID)
            outcome.requests += 1
            outcome.pages += 1
            let known = try await database.knownIDs(page.tweets.map(\.id), feed: feed, account: state.account)
            let fresh = page.tweets.count - known.count
            walkTop = walkTop ?? page.tweets.first?.id
            if let rateLimit = page.rateLimit?.localized(now: clock.now()) { state.rateLimit = rateLimit }
            // Pending until the walk ends: where to resume if it is cut short.
            state.pendingTop = state.pendingTop ?? walkTop
            if let oldest = page.tweets.last?.id { state.pendingBottom = min(oldest, state.pendingBottom ?? oldest) }
            outcome.newTweets += try await storePage(page, state: state)
            onProgress()
            let belowResumePoint = resumeBelow.map { bound in page.tweets.last.map { $0.id < bound } ?? false } ?? true
            let nothingNew = !page.tweets.isEmpty && fresh == 0
            guard let next = page.nextPageToken, !(nothingNew && belowResumePoint) else { break }
            token = next
        }
        if let walkTop { state.newestID = max(walkTop, state.newestID ?? walkTop) }
        state.pendingTop = nil
        state.pendingBottom = nil
        outcome.complete = true
    }
}
