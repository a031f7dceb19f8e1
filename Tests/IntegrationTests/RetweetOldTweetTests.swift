import Foundation
import Testing
import TwfeedBilling
import TwfeedEmulator
@testable import TwfeedKit
import TwfeedTesting

/// An old tweet of mine retweeted today, against the emulator in both dialects. Neither
/// list helps: v1.1 lists retweets-of-me by id, below since_id, and the emulator's v2
/// reposts_of_me lists by post id too (`EmulatorRepostsOrder.byPostID`, its default: the
/// API does not document the order). The own originals' repost counts find it.
@Suite(.serialized, .tags(.integration))
struct RetweetOldTweetTests {
    /// A post among my newest 100 reposted on a day the deep check does not run: in the
    /// feed within two polls, from the newest page of own originals alone (one request
    /// a poll), though the feed's own list does not put it first.
    @Test(arguments: ["v2", "v1.1"])
    func anOldPostAmongTheNewest100RepostedIsInTheFeedWithinTwoPolls(dialect: String) async throws {
        let world = try TestWorld(dialect: dialect, tweets: 150)
        let clock = ManualClock(now: Date())
        world.serverFollows(clock)
        let daemon = try world.daemon(clock: clock)
        let retweets = try #require(daemon.syncers.first { $0.feed == .retweets })
        #expect(try await retweets.poll().complete)
        // The next UTC day: the deep check (weekly by default) is not due.
        clock.advance(to: BillingCycle.endOfUTCDay(clock.now()).addingTimeInterval(60))
        world.serverFollows(clock)
        #expect(try await retweets.poll().complete)
        let emulatorDialect = EmulatorDialect(rawValue: dialect)!
        let listed = Set(world.emulator.groundTruth(.retweets, dialect: emulatorDialect))
        let members = try await Set(daemon.database.memberIDs(.retweets).map(\.description))
        let newest = try #require(listed.compactMap { UInt64($0) }.max())
        let old = try #require(world.emulator.ownTweetIDs().prefix(100).reversed().first {
            !listed.contains($0) && !members.contains($0) && UInt64($0)! < newest
        })
        #expect(world.emulator.retweetOldTweet(old) == old)
        #expect(world.emulator.groundTruth(.retweets, dialect: emulatorDialect).first != old, "not listed first")
        func ownReads() -> Int {
            world.emulator.requests.filter { $0.path.hasSuffix("/tweets") || $0.path.contains("user_timeline") }.count
        }
        let before = ownReads()
        let walks = world.sink.events("poll.full_walk").count
        #expect(try await world.pollUntilMember(old, retweets, database: daemon.database, clock: clock, polls: 2))
        #expect(try await daemon.database.feedItems(.retweets, limit: 1000).contains { $0.tweet.id.description == old })
        #expect((1...2).contains(ownReads() - before), "one page of own originals a poll")
        #expect(world.sink.events("poll.full_walk").count == walks, "no deep check")
    }

    /// v1.1: an old tweet below the first page, which retweets-of-me lists by id, is found
    /// at the next poll from the own originals' repost counts (with `api.ownsApp`, re-read
    /// free the same UTC day), not by a walk through retweets-of-me a day later.
    @Test func aDeepOldTweetIsTaggedAtTheNextPollFromTheOwnOriginals() async throws {
        let world = try TestWorld(dialect: "v1.1", tweets: 400)
        let clock = ManualClock(now: Date())
        let daemon = try world.daemon(clock: clock)
        let retweets = try #require(daemon.syncers.first { $0.feed == .retweets })
        #expect(try await retweets.poll().complete)
        func unbounded() -> Int {
            world.emulator.requests.filter { $0.path.contains("retweets_of_me") && !$0.query.contains("since_id") }.count
        }
        let backfill = unbounded()
        let old = try #require(world.emulator.retweetOldTweet())
        let position = try #require(world.emulator.groundTruth(.retweets, dialect: .v1_1).firstIndex(of: old))
        #expect(position >= 100, "below v1.1's first page")
        clock.advance(by: 15)
        #expect(try await retweets.poll().complete)
        #expect(try await daemon.database.memberIDs(.retweets).map(\.description).contains(old))
        #expect(world.sink.events("poll.full_walk").allSatisfy { $0.contains("via=own_posts") })
        #expect(unbounded() == backfill, "retweets-of-me without since_id only for the first backfill")
    }
}
