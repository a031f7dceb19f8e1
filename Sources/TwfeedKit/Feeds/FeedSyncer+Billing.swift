import Foundation
import Logging
import TwfeedBase
import TwfeedBilling
import TwfeedCore
import TwfeedStore

/// The syncer's side of the bill: every page is asked for through the `BillingGate`,
/// sized to what the budget pays for, and a refusal for money or entitlement becomes the
/// gate's state instead of a backoff.
extension FeedSyncer {
    var source: BillingSource { BillingTerms.source(of: feed) }

    /// The most one post of this feed can cost (`BillingTerms.worstCase(perPostOf:)`).
    var worstCasePerPost: MicroUSD {
        terms.worstCase(perPostOf: BillableAnswer.postKind(of: feed, ownsApp: terms.ownsApp))
    }

    /// The page sizes a budget may ask for: never fewer than 10 posts (or the
    /// endpoint's minimum), since pages that shrink to a post or two as the day's money
    /// runs out would spend the rate limit (15 requests in 15 minutes on v1.1's home)
    /// for almost nothing; the rest of the day's allowance waits for tomorrow.
    static func budgetedPages(_ bounds: ClosedRange<Int>) -> ClosedRange<Int> {
        Swift.max(bounds.lowerBound, Swift.min(10, bounds.upperBound))...bounds.upperBound
    }

    /// One page through the gate: admitted (and sized) first, the gate told how the API
    /// answered after. Throws `BillingGate.Hold` when the page may not be asked for now,
    /// or when the API refused it for money or entitlement.
    func timelinePage(_ query: TimelineQuery, userID: UserID, within: MicroUSD? = nil, history: Bool = false) async throws -> TimelinePage {
        guard let gate else { return try await api.timeline(feed, userID: userID, query: query) }
        var sized = query
        let bounds = Self.budgetedPages(api.dialect.pageBounds(feed))
        switch try await gate.admit(source, perPost: worstCasePerPost, posts: bounds, within: within, history: history) {
        case .go(let maxPosts):
            // The smaller of what the read wants and what the budget pays for.
            sized.maxResults = [query.maxResults, maxPosts].compactMap { $0 }.min()
        case .hold(let hold):
            throw hold
        }
        do {
            let page = try await api.timeline(feed, userID: userID, query: sized)
            try await gate.answered(source)
            return page
        } catch let error as APIError {
            guard let refusal = error.refusal else { throw error }
            throw try await gate.refused(refusal, source: source)
        }
    }

    /// Any other billable read of this feed (its own originals) through the gate:
    /// admitted at `posts` × `perPost`, and a refusal for money or entitlement turned
    /// into the gate's state. (The authors a page lacks are paid within the page's own
    /// admission: `AuthorLookup`.)
    func gated<T>(
        perPost: MicroUSD,
        posts: ClosedRange<Int>,
        _ request: () async throws -> T
    ) async throws -> T {
        guard let gate else { return try await request() }
        if case .hold(let hold) = try await gate.admit(source, perPost: perPost, posts: posts) { throw hold }
        do {
            let value = try await request()
            try await gate.answered(source)
            return value
        } catch let error as APIError {
            guard let refusal = error.refusal else { throw error }
            throw try await gate.refused(refusal, source: source)
        }
    }

    /// The budget stopped a range below its newest part: what lies below the lowest post
    /// read, down to the feed's newest stored post, is recorded as a gap, and the range is
    /// closed at its top, so the next poll reads what is new from there. In the feed's
    /// first range (no newest post yet: the first backfill) the gap has no lower end
    /// (`FeedGap.reachesBack`): the history below the posts read, as far back as the API
    /// reaches, which the next days' allowance reads on into (`readOnIntoBackfillGap`).
    /// The gap and the closed range are saved in one transaction.
    func closeRangeWithGap(_ state: inout SyncState) async throws {
        guard let top = state.pendingTop, let bottom = state.pendingBottom else { return }
        let newer = state.newestID ?? FeedGap.noLowerEnd
        state.newestID = max(top, state.newestID ?? top)
        state.pendingTop = nil
        state.pendingBottom = nil
        guard newer < bottom else {
            try await database.saveSyncState(state)
            return
        }
        let gap = try await database.recordGap(
            FeedGap(feed: feed, newerThanID: newer, olderThanID: bottom, reason: .budget, recordedAt: clock.now()),
            closing: state
        )
        logger.warning(
            "gap.recorded",
            metadata: [
                "feed": "\(feed.rawValue)", "newer_than_id": "\(gap.reachesBack ? "none" : gap.newerThanID.description)",
                "older_than_id": "\(gap.olderThanID)", "reason": "\(gap.reason.rawValue)",
                "hint": "twfeed fill \(feed.rawValue) --max-usd X reads it",
            ]
        )
    }

    /// Once a poll has read the feed's new posts, what the budget still allows reads on
    /// into the gap below the feed's first backfill (the one that reaches back), from its
    /// top down, keeping what the feed's own new posts are expected to need for the rest
    /// of today (`BillingGate.admit`'s `history`): each page stored with the gap's new
    /// lower bound in one transaction, so the gap shrinks, and goes when the API's reach
    /// ends. The budget (or the rate limit, or the page cap) stops it quietly: the gap
    /// stays, shrunk, for the next poll. A gap between two parts read waits for `twfeed
    /// fill`: reading it unasked would spend the day's allowance on yesterday's posts
    /// before today's.
    func readOnIntoBackfillGap(
        _ state: inout SyncState,
        userID: UserID,
        outcome: inout PollProgress,
        onProgress: () -> Void
    ) async throws {
        guard var gap = try await database.gaps(feed).first(where: \.reachesBack) else { return }
        // The range just read is closed before anything else may stop the poll.
        try await database.saveSyncState(state)
        // A page token belongs to the query that produced it: every page of the chain is
        // asked with the first page's bound, while the gap's stored bound moves down.
        let query = TimelineQuery(untilID: gap.olderThanID)
        var token: String?
        var spent = MicroUSD.zero
        while true {
            if rateLimitWait(state, now: clock.now()) != nil || outcome.pages >= maxPagesPerPoll { return }
            let page: TimelinePage
            do {
                page = try await timelinePage(query.following(token), userID: userID, history: true)
            } catch let hold as BillingGate.Hold where hold.reason == .budget {
                return
            }
            outcome.requests += 1
            outcome.pages += 1
            if let rateLimit = page.rateLimit?.localized(now: clock.now()) { state.rateLimit = rateLimit }
            // A page can come back empty and still carry a token (posts removed after it
            // was cut): only the end of the pages ends the gap.
            let oldest = page.tweets.map(\.id).min() ?? gap.olderThanID
            let done = page.nextPageToken == nil
            let stored = try await storeGapPage(page, gap: gap, olderThanID: done ? nil : oldest, bill: terms.bill(page, feed: feed))
            outcome.newTweets += stored.added
            spent += stored.cost
            onProgress()
            if done {
                logGapFilled(gap, spent: spent)
                return
            }
            gap.olderThanID = oldest
            token = page.nextPageToken
        }
    }

    /// Stores a page read inside `gap` (its authors looked up first where the dialect
    /// leaves them out, as `storePage` does) with the gap's new lower bound, or its end
    /// when `olderThanID` is nil, and the page's charge, in one transaction.
    func storeGapPage(
        _ page: TimelinePage,
        gap: FeedGap,
        olderThanID: TweetID?,
        bill: BillableAnswer
    ) async throws -> (added: Int, cost: MicroUSD) {
        var page = page
        var bill = bill
        try await completeAuthors(&page, bill: &bill)
        return try await database.storeGapPage(
            page,
            feed: feed,
            gap: gap,
            olderThanID: olderThanID,
            bill: bill,
            prices: terms.prices,
            now: clock.now()
        )
    }

    func logGapFilled(_ gap: FeedGap, spent: MicroUSD) {
        logger.notice(
            "gap.filled",
            metadata: [
                "feed": "\(feed.rawValue)", "newer_than_id": "\(gap.reachesBack ? "none" : gap.newerThanID.description)",
                "older_than_id": "\(gap.olderThanID)", "usd": "\(spent.decimalString)",
            ]
        )
    }

    /// `twfeed fill`: reads the feed's gaps, newest first, from the top of each down,
    /// spending at most `maxSpend` (and never past the cycle's budget). Each page is
    /// stored with the gap's new bounds in one transaction. Returns what was spent. Ten
    /// empty pages in a row stop it: a server that hands out empty pages and tokens
    /// forever costs nothing, so the spend would never stop it.
    func fill(maxSpend: MicroUSD, userID: UserID) async throws -> MicroUSD {
        var spent = MicroUSD.zero
        var empty = 0
        for var gap in try await database.gaps(feed) {
            // The gap's bounds as they were when its first page was asked: the token chain's
            // query, which the token belongs to (the stored bound moves down meanwhile).
            let query = TimelineQuery(sinceID: gap.reachesBack ? nil : gap.newerThanID, untilID: gap.olderThanID)
            var token: String?
            while true {
                try Task.checkCancellation()
                let left = maxSpend - spent
                guard left.micros > 0, empty < 10 else { return spent }
                let page: TimelinePage
                do {
                    page = try await timelinePage(query.following(token), userID: userID, within: left)
                } catch let hold as BillingGate.Hold where hold.reason == .budget {
                    return spent
                }
                // An empty page with a token goes on: only the end of the pages ends the gap.
                empty = page.tweets.isEmpty ? empty + 1 : 0
                let oldest = page.tweets.map(\.id).min() ?? gap.olderThanID
                let done = page.nextPageToken == nil
                let stored = try await storeGapPage(
                    page,
                    gap: gap,
                    olderThanID: done ? nil : oldest,
                    bill: .page(page, source: .lookups, postKind: BillableAnswer.postKind(of: feed, ownsApp: terms.ownsApp))
                )
                spent += stored.cost
                if done {
                    logGapFilled(gap, spent: spent)
                    break
                }
                gap.olderThanID = oldest
                token = page.nextPageToken
            }
        }
        return spent
    }
}
