import Foundation
import Testing
import TwfeedEmulator
@testable import TwfeedKit
import TwfeedTesting

/// The retweets feed against the emulator, which cuts a page before it removes what
/// `exclude=retweets` excludes, as x-api.md says v2 does: an empty page can carry a
/// `next_token`, and what lies below it is still to be read.
@Suite(.serialized, .tags(.integration))
struct EmptyPageRetweetsTests {
    /// 2026-11-28T12:00:00Z: half a UTC day left, so the polls share one.
    static let midday = Date(timeIntervalSince1970: 1_795_867_200)

    /// My newest 100 posts are my own reposts, so the first page of my originals
    /// (`exclude=retweets`) comes back empty with a `next_token`. An old original of mine
    /// reposted by someone, below that page (and deep in reposts_of_me, which the emulator
    /// lists by post id), is in the feed within two polls: the deep check, which runs at
    /// every poll of the UTC day it first ran (free that day), reads on past the empty page.
    @Test func aRepostBelowAnEmptyPageOfOwnPostsIsInTheFeedWithinTwoPolls() async throws {
        let world = try TestWorld(dialect: "v2", tweets: 150)
        let clock = ManualClock(now: Self.midday)
        world.serverFollows(clock)
        let reposts = world.emulator.repostAsAccount(count: 100)
        #expect(Array(world.emulator.ownTweetIDs().prefix(100)) == reposts.reversed())
        let daemon = try world.daemon(clock: clock)
        let retweets = try #require(daemon.syncers.first { $0.feed == .retweets })
        #expect(try await retweets.poll().complete)
        let firstReads = world.emulator.requests.filter { $0.endpoint == "ownPosts" }
        #expect(firstReads.count >= 2, "the deep check went on past the empty page")

        let listed = Set(world.emulator.groundTruth(.retweets, dialect: .v2))
        let members = try await Set(daemon.database.memberIDs(.retweets).map(\.description))
        let newest = try #require(listed.compactMap { UInt64($0) }.max())
        let old = try #require(world.emulator.ownTweetIDs().dropFirst(100).first { id in
            let tweet = world.emulator.tweet(id)
            return tweet?.retweetOfID == nil && tweet?.inReplyToID == nil && !listed.contains(id) && !members.contains(id)
                && UInt64(id)! < newest
        })
        #expect(world.emulator.retweetOldTweet(old) == old)
        #expect(world.emulator.groundTruth(.retweets, dialect: .v2).first != old, "not listed first")
        #expect(try await world.pollUntilMember(old, retweets, database: daemon.database, clock: clock, polls: 2))
        let ownReads = world.emulator.requests.filter { $0.endpoint == "ownPosts" }
        #expect(ownReads.allSatisfy { $0.status == 200 })
        #expect(ownReads.contains { $0.parameters["pagination_token"] != nil })
    }
}
