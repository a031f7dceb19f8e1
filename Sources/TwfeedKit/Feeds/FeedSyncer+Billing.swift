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
    func timelinePage(_ query: TimelineQuery, userID: UserID, within: MicroUSD? = nil) async throws -> TimelinePage {
        guard let gate else { return try await api.timeline(feed, userID: userID, query: query) }
        var sized = query
        switch try await gate.admit(source, perPost: worstCasePerPost, posts: Self.budgetedPages(api.dialect.pageBounds(feed)), within: within) {
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

    /// Any other billable read of this feed (its own originals, the authors it lacks)
    /// through the gate: admitted at `posts` × `perPost` when `admit` (nothing more to
    /// admit when the page that needs it already reserved its worst case), and a refusal
    /// for money or entitlement turned into the gate's state.
    func gated<T>(
        admit: Bool = true,
        perPost: MicroUSD,
        posts: ClosedRange<Int>,
        _ request: () async throws -> T
    ) async throws -> T {
        guard let gate else { return try await request() }
        if admit, case .hold(let hold) = try await gate.admit(source, perPost: perPost, posts: posts) { throw hold }
        do {
            let value = try await request()
            try await gate.answered(source)
            return value
        } catch let error as APIError {
            guard let refusal = error.refusal else { throw error }
            throw try await gate.refused(refusal, source: source)
        }
    }

    /// The budget stopped a range below its newest part: what lies between the feed's
    /// newest stored post and the lowest post read is recorded as a gap, and the range is
    /// closed at its top, so the next poll reads what is new from there. Before the feed's
    /// first range (no newest post) there is nothing to record: the history below the
    /// first page was never promised.
    func closeRangeWithGap(_ state: inout SyncState) async throws {
        guard let top = state.pendingTop, let bottom = state.pendingBottom else { return }
        let newer = state.newestID
        state.newestID = max(top, state.newestID ?? top)
        state.pendingTop = nil
        state.pendingBottom = nil
        guard let newer, newer < bottom else {
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
                "feed": "\(feed.rawValue)", "newer_than_id": "\(gap.newerThanID)", "older_than_id": "\(gap.olderThanID)",
                "reason": "\(gap.reason.rawValue)", "hint": "twfeed fill \(feed.rawValue) --max-usd X reads it",
            ]
        )
    }

    /// `twfeed fill`: reads the feed's gaps, newest first, from the top of each down,
    /// spending at most `maxSpend` (and never past the cycle's budget). Each page is
    /// stored with the gap's new bounds in one transaction. Returns what was spent.
    func fill(maxSpend: MicroUSD, userID: UserID) async throws -> MicroUSD {
        var spent = MicroUSD.zero
        for var gap in try await database.gaps(feed) {
            var token: String?
            while true {
                try Task.checkCancellation()
                let left = maxSpend - spent
                guard left.micros > 0 else { return spent }
                let query = TimelineQuery(sinceID: gap.newerThanID, untilID: gap.olderThanID, pageToken: token)
                let page: TimelinePage
                do {
                    page = try await timelinePage(query, userID: userID, within: left)
                } catch let hold as BillingGate.Hold where hold.reason == .budget {
                    return spent
                }
                let oldest = page.tweets.map(\.id).min()
                let done = page.nextPageToken == nil || oldest == nil
                let stored = try await database.storeGapPage(
                    page,
                    feed: feed,
                    gap: gap,
                    olderThanID: done ? nil : oldest,
                    bill: .page(page, source: .lookups, postKind: BillableAnswer.postKind(of: feed, ownsApp: terms.ownsApp)),
                    prices: terms.prices,
                    now: clock.now()
                )
                spent += stored.cost
                if done {
                    logger.notice(
                        "gap.filled",
                        metadata: [
                            "feed": "\(feed.rawValue)", "newer_than_id": "\(gap.newerThanID)",
                            "older_than_id": "\(gap.olderThanID)", "usd": "\(spent.decimalString)",
                        ]
                    )
                    break
                }
                if let oldest { gap.olderThanID = oldest }
                token = page.nextPageToken
            }
        }
        return spent
    }
}
