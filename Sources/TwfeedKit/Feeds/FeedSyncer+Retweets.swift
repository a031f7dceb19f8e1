import Foundation
import Logging
import TwfeedBilling
import TwfeedCore
import TwfeedStore

/// Retweets of old tweets. `retweets_of_me` lists the account's tweets that others
/// retweeted; a tweet from last year retweeted today is new to the feed, but v1.1 lists
/// it by its own id, far below any `since_id`, and v2's walk stops at the first page
/// with nothing new. So each poll re-reads the first page without `since_id`, and on a
/// slower schedule (`feeds.retweets.fullWalkHours`) a full walk reads every page within
/// the API's reach and tags every tweet newly retweeted, however old.
/// What the retweets feed's deep check reads to find old posts newly reposted.
package enum RetweetsCheck: Sendable, Equatable {
    /// Every page of retweets-of-me, at the post read price ($0.005 a post, every post of
    /// its reach paid again each day it is walked): when the account does not own the app,
    /// the own posts cost as much, so this reads exactly the feed.
    case repostsOfMe
    /// The account's own originals with their repost counts, as owned reads ($0.001 a
    /// post with `api.ownsApp`): a post of mine with a count above 0 belongs to the feed.
    case ownOriginals
}

extension FeedSyncer {
    /// The page of v2 reposts_of_me once the feed is caught up: it lists the most recently
    /// reposted first, and every post an answer returns is billed (the first read of each
    /// UTC day pays again for posts already stored), so a poll asks for a few and reads on
    /// only while a page brings something new. The first backfill asks for 100 a page
    /// (the endpoint allows 75 requests per 15 minutes).
    static let repostsPageOnceCaughtUp = 10

    /// The retweets feed with `RetweetsCheck.ownOriginals` (the default with
    /// `api.ownsApp`): the own originals' repost counts on the full walk's schedule (v1.1:
    /// every poll, see `ownOriginalsDue`), then the cheap part of the feed's own endpoint:
    /// v2 reposts_of_me from the top, a small first page; v1.1 `since_id` alone, since the
    /// own originals already cover what re-reading its first page was for.
    func pollRetweetsCheaply(
        _ state: inout SyncState,
        userID: UserID,
        outcome: inout PollOutcome,
        onProgress: () -> Void
    ) async throws {
        if ownOriginalsDue(state, now: clock.now()) {
            try await ownOriginalsWalk(&state, userID: userID, outcome: &outcome, onProgress: onProgress)
            if !outcome.complete { return }
            outcome.complete = false
        }
        if api.supportsSinceID(feed) {
            try await syncRange(&state, userID: userID, outcome: &outcome, onProgress: onProgress)
        } else {
            try await walk(&state, userID: userID, outcome: &outcome, onProgress: onProgress)
        }
    }

    /// Whether the own originals are read this poll: never read, `fullWalkInterval`
    /// passed, or the clock went back. Where the feed's endpoint lists reposts by post id
    /// (v1.1, whose old post reposted today sits below any `since_id`) also on every poll
    /// of a UTC day whose read is paid (the API bills a post once per UTC day, so reading
    /// the same posts again that day costs nothing), and, with a schedule of a day or
    /// less, at the first poll of each UTC day.
    func ownOriginalsDue(_ state: SyncState, now: Date) -> Bool {
        if fullWalkDue(state, now: now) { return true }
        guard api.supportsSinceID(feed), let last = state.lastFullWalkAt else { return false }
        let sameDay = BillingCycle.utcDay(of: last) == BillingCycle.utcDay(of: now)
        return sameDay || fullWalkInterval <= 86_400
    }

    /// Every page of the own originals, tagging into the feed each post someone reposted
    /// (a repost count above 0), however old. Each page is charged whole to `retweets`.
    /// Like the full walk it is not resumable, and one cut short is done again next poll.
    func ownOriginalsWalk(
        _ state: inout SyncState,
        userID: UserID,
        outcome: inout PollOutcome,
        onProgress: () -> Void
    ) async throws {
        var token: String?
        var tagged = 0
        var pages = 0
        while true {
            if rateLimitWait(state, now: clock.now()) != nil || outcome.pages >= maxPagesPerPoll { return }
            let perPost = terms.ownsApp ? terms.prices.ownedRead : terms.prices.postRead
            let page = try await gated(perPost: perPost, posts: 100...100) {
                try await api.ownOriginals(userID: userID, query: TimelineQuery(pageToken: token))
            }
            outcome.requests += 1
            outcome.pages += 1
            pages += 1
            let reposted = page.tweets.filter { (page.retweetCounts[$0.id] ?? 0) > 0 }
            let bill = BillableAnswer.page(page, source: .retweets, postKind: terms.ownsApp ? .ownedRead : .postRead)
            var members = page
            members.tweets = reposted
            let added = try await storePage(members, state: state, bill: bill)
            tagged += added
            outcome.newTweets += added
            onProgress()
            guard let next = page.nextPageToken, !page.tweets.isEmpty else { break }
            token = next
        }
        state.lastFullWalkAt = clock.now()
        outcome.complete = true
        logger.info(
            "poll.full_walk",
            metadata: [
                "feed": "\(feed.rawValue)", "pages": "\(pages)", "new": "\(tagged)", "via": "own_posts",
            ]
        )
    }

    /// Whether the full walk is due: never done, `fullWalkInterval` passed since the last
    /// one (stored, so a restart does not redo it), or the wall clock went back past it.
    func fullWalkDue(_ state: SyncState, now: Date) -> Bool {
        guard let last = state.lastFullWalkAt else { return true }
        let elapsed = now.timeIntervalSince(last)
        return elapsed >= fullWalkInterval || elapsed < 0
    }

    /// Every page from the newest, upserting, without stopping at a page with nothing
    /// new. Not resumable (the reach is a few pages): one cut short by a rate limit or an
    /// error is done again from the top on the next poll, since `lastFullWalkAt` stays.
    func fullWalk(
        _ state: inout SyncState,
        userID: UserID,
        outcome: inout PollOutcome,
        onProgress: () -> Void
    ) async throws {
        var token: String?
        var top: TweetID?
        while true {
            if rateLimitWait(state, now: clock.now()) != nil || outcome.pages >= maxPagesPerPoll { return }
            let page = try await timelinePage(TimelineQuery(pageToken: token), userID: userID)
            outcome.requests += 1
            outcome.pages += 1
            if let rateLimit = page.rateLimit?.localized(now: clock.now()) { state.rateLimit = rateLimit }
            if let newest = page.tweets.map(\.id).max() { top = max(newest, top ?? newest) }
            outcome.newTweets += try await storePage(page, state: state)
            onProgress()
            guard let next = page.nextPageToken, !page.tweets.isEmpty else { break }
            token = next
        }
        // The walk covered every range in progress.
        if let top { state.newestID = max(top, state.newestID ?? top) }
        state.pendingTop = nil
        state.pendingBottom = nil
        state.lastFullWalkAt = clock.now()
        outcome.complete = true
        logger.info(
            "poll.full_walk",
            metadata: [
                "feed": "\(feed.rawValue)", "pages": "\(outcome.pages)", "new": "\(outcome.newTweets)",
            ]
        )
    }

    /// v1.1: the first page without `since_id`, so a tweet newly retweeted that sits
    /// below `since_id` but on the first page is tagged at once. When that page reaches
    /// down to the stored newest id, it was the whole new range: the poll is complete
    /// with this one request. Skipped while a range is in progress or before the first.
    func rereadFirstPage(
        _ state: inout SyncState,
        userID: UserID,
        outcome: inout PollOutcome,
        onProgress: () -> Void
    ) async throws {
        guard state.pendingTop == nil, let newest = state.newestID, rateLimitWait(state, now: clock.now()) == nil
        else { return }
        let page = try await timelinePage(TimelineQuery(), userID: userID)
        outcome.requests += 1
        outcome.pages += 1
        if let rateLimit = page.rateLimit?.localized(now: clock.now()) { state.rateLimit = rateLimit }
        outcome.newTweets += try await storePage(page, state: state)
        onProgress()
        let ids = page.tweets.map(\.id)
        if page.nextPageToken == nil || ids.isEmpty || ids.min()! <= newest {
            if let top = ids.max() { state.newestID = max(top, newest) }
            outcome.complete = true
        }
    }
}
