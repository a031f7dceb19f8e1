import Foundation
import Logging
import TwfeedBilling
import TwfeedCore
import TwfeedStore

/// Retweets of old tweets. `retweets_of_me` lists the account's tweets that others
/// retweeted; a tweet from last year retweeted today is new to the feed, but v1.1 lists
/// it by its own id, far below any `since_id`, and v2 does not say in what order it
/// lists (so a walk that stops at the first page with nothing new may never reach it).
/// So every poll first reads the newest page of the account's own originals with their
/// repost counts (`ownOriginalsWalk`): a post of mine with a count above 0 that the
/// feed lacks was newly reposted, wherever the feed's endpoint lists it. The older
/// pages are read on a slower schedule (`feeds.retweets.fullWalkHours`).
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

    /// One poll of the retweets feed. First the newest page of the own originals and
    /// their repost counts (every poll: the API bills a post once per UTC day, so it is
    /// paid at the day's first poll and free after), every page of them when the deep
    /// check is due (`ownOriginalsDue`, with `RetweetsCheck.ownOriginals`). Then the cheap
    /// part of the feed's own endpoint: v2 reposts_of_me from the top in small pages, v1.1
    /// `since_id`; without `api.ownsApp` (`.repostsOfMe`) the deep check is the full walk
    /// of reposts_of_me, and v1.1 also re-reads its first page.
    func pollRetweets(
        _ state: inout SyncState,
        userID: UserID,
        outcome: inout PollProgress,
        onProgress: () -> Void
    ) async throws {
        let deep = retweetsCheck == .ownOriginals && ownOriginalsDue(state, now: clock.now())
        try await ownOriginalsWalk(&state, userID: userID, outcome: &outcome, allPages: deep, onProgress: onProgress)
        if !outcome.complete { return }
        outcome.complete = false
        switch retweetsCheck {
        case .ownOriginals:
            if api.supportsSinceID(feed) {
                try await syncRange(&state, userID: userID, outcome: &outcome, onProgress: onProgress)
            } else {
                try await walk(&state, userID: userID, outcome: &outcome, onProgress: onProgress)
            }
        case .repostsOfMe:
            if fullWalkDue(state, now: clock.now()) {
                try await fullWalk(&state, userID: userID, outcome: &outcome, onProgress: onProgress)
            } else if api.supportsSinceID(feed) {
                try await rereadFirstPage(&state, userID: userID, outcome: &outcome, onProgress: onProgress)
                if !outcome.complete {
                    try await syncRange(&state, userID: userID, outcome: &outcome, onProgress: onProgress)
                }
            } else {
                try await walk(&state, userID: userID, outcome: &outcome, onProgress: onProgress)
            }
        }
    }

    /// Whether every page of the own originals is read this poll (the deep check): never
    /// read, `fullWalkInterval` passed, the clock went back, or the last deep check was
    /// today (UTC): the API bills a post once per UTC day, so reading the same posts again
    /// that day costs nothing and finds a deep repost at once.
    func ownOriginalsDue(_ state: SyncState, now: Date) -> Bool {
        if fullWalkDue(state, now: now) { return true }
        guard let last = state.lastFullWalkAt else { return false }
        return BillingCycle.utcDay(of: last) == BillingCycle.utcDay(of: now)
    }

    /// The newest own originals every poll reads the repost counts of: one page of 100
    /// (v1.1 asks for 100 instead of its usual 200, so the page costs the same).
    static let newestOwnOriginals = 100

    /// The most posts one page of the own originals returns (v2 100, v1.1 200): what a
    /// page of the deep check is admitted at.
    var ownOriginalsPageSize: Int { api.dialect == .v1_1 ? 200 : 100 }

    /// The own originals, newest first (the first page that holds any, or every page when
    /// `allPages`),
    /// tagging into the feed each post someone reposted (a repost count above 0) that it
    /// lacks, however old. Each page is admitted through the gate at its worst case (a
    /// whole page at the read's price) and charged whole to `retweets`. A deep check cut
    /// short is not resumed: it is done again at the next poll, since `lastFullWalkAt`
    /// stays. Only the end of the pages ends it: v2 removes what `exclude=retweets`
    /// excludes after the page is cut, so a run of my own reposts comes back as an empty
    /// page with a `next_token`, and older originals lie below it (x-api.md). (v1.1 gives
    /// an empty page no position to go on from: its client ends the pages there.)
    func ownOriginalsWalk(
        _ state: inout SyncState,
        userID: UserID,
        outcome: inout PollProgress,
        allPages: Bool,
        onProgress: () -> Void
    ) async throws {
        var token: String?
        var tagged = 0
        var pages = 0
        while true {
            if rateLimitWait(state, now: clock.now()) != nil || outcome.pages >= maxPagesPerPoll { return }
            let perPost = terms.ownsApp ? terms.prices.ownedRead : terms.prices.postRead
            let size = allPages ? ownOriginalsPageSize : Self.newestOwnOriginals
            let query = TimelineQuery(pageToken: token, maxResults: allPages ? nil : size)
            let page = try await gated(perPost: perPost, posts: size...size) {
                try await api.ownOriginals(userID: userID, query: query)
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
            // Every poll's check reads on past an empty page too: when my newest posts are
            // all reposts, my newest originals are the first below them that hold any.
            guard allPages || page.tweets.isEmpty, let next = page.nextPageToken else { break }
            token = next
        }
        outcome.complete = true
        guard allPages else { return }
        state.lastFullWalkAt = clock.now()
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
    /// new, nor at an empty one that carries a `next_token` (posts removed after the page
    /// was cut: what lies below it is still to be read). Not resumable (the reach is a few
    /// pages): one cut short by a rate limit or an error is done again from the top on the
    /// next poll, since `lastFullWalkAt` stays.
    func fullWalk(
        _ state: inout SyncState,
        userID: UserID,
        outcome: inout PollProgress,
        onProgress: () -> Void
    ) async throws {
        var top: TweetID?
        var token: String?
        while true {
            if rateLimitWait(state, now: clock.now()) != nil || outcome.pages >= maxPagesPerPoll { return }
            let page = try await timelinePage(TimelineQuery(pageToken: token), userID: userID)
            outcome.requests += 1
            outcome.pages += 1
            if let rateLimit = page.rateLimit?.localized(now: clock.now()) { state.rateLimit = rateLimit }
            if let newest = page.tweets.map(\.id).max() { top = max(newest, top ?? newest) }
            outcome.newTweets += try await storePage(page, state: state)
            onProgress()
            guard let next = page.nextPageToken else { break }
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
        outcome: inout PollProgress,
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
