import Foundation
import Testing
import TwfeedEmulator
@testable import TwfeedKit
import TwfeedTesting

/// An old tweet of mine retweeted today, against the emulator in both dialects: v1.1
/// lists it by its id, below since_id; v2 lists it first. After the daemon is caught up
/// the next poll tags it, or (deeper than the first page) the next full walk.
@Suite(.serialized)
struct RetweetOldTweetTests {
    @Test(arguments: ["v2", "v1.1"])
    func anOldTweetRetweetedNowIsTaggedAfterTheNextPoll(dialect: String) async throws {
        let world = try TestWorld(dialect: dialect, tweets: 150)
        let clock = ManualClock(now: Date())
        let daemon = try world.daemon(clock: clock)
        let retweets = try #require(daemon.syncers.first { $0.feed == .retweets })
        #expect(try await retweets.poll().complete)
        #expect(try await retweets.poll().complete)
        let emulatorDialect = EmulatorDialect(rawValue: dialect)!
        let listed = world.emulator.groundTruth(.retweets, dialect: emulatorDialect)
        let newest = try #require(listed.map { UInt64($0)! }.max())
        // v1.1's first page is the 100 highest ids: pick an unlisted tweet of mine there.
        let floor = dialect == "v1.1" && listed.count >= 100 ? UInt64(listed[99])! : 0
        let old: String
        if dialect == "v1.1" {
            old = try #require(world.emulator.ownTweetIDs().first {
                !listed.contains($0) && UInt64($0)! > floor && UInt64($0)! < newest
            })
            #expect(world.emulator.retweetOldTweet(old) == old)
        } else {
            old = try #require(world.emulator.retweetOldTweet())
        }
        #expect(UInt64(old)! < newest, "older than every tweet the feed held")
        #expect(try !daemon.database.memberIDs(.retweets).map(\.description).contains(old))
        clock.advance(by: 15)
        #expect(try await retweets.poll().complete)
        #expect(try daemon.database.memberIDs(.retweets).map(\.description).contains(old))
        #expect(try daemon.database.feedItems(.retweets, limit: 1000).contains { $0.tweet.id.description == old })
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
        #expect(try daemon.database.memberIDs(.retweets).map(\.description).contains(old))
        #expect(world.sink.events("poll.full_walk").allSatisfy { $0.contains("via=own_posts") })
        #expect(unbounded() == backfill, "retweets-of-me without since_id only for the first backfill")
    }
}
