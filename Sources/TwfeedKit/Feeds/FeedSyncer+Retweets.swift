import Foundation
import Logging
import TwfeedCore
import TwfeedStore

/// Retweets of old tweets. `retweets_of_me` lists the account's tweets that others
/// retweeted; a tweet from last year retweeted today is new to the feed, but v1.1 lists
/// it by its own id, far below any `since_id`, and v2's walk stops at the first page
/// with nothing new. So each poll re-reads the first page without `since_id`, and on a
/// slower schedule (`feeds.retweets.fullWalkHours`) a full walk reads every page within
/// the API's reach and tags every tweet newly retweeted, however old.
extension FeedSyncer {
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
