import Foundation
import Testing
import TwfeedEmulator
import TwfeedSandbox
@testable import TwfeedKit
@testable import TwfeedCore

/// The daemon against the emulator over loopback: what it stores must be exactly the
/// emulator's ground truth, in both dialects.
@Suite(.serialized, .tags(.integration))
struct BackfillTests {
    @Test(arguments: ["v2", "v1.1"])
    func everyReachableTweetIsStoredOnceWithItsFeedTags(dialect: String) async throws {
        let world = try TestWorld(dialect: dialect, tweets: 1000)
        let daemon = try world.daemon()
        for syncer in daemon.syncers {
            let outcome = try await syncer.poll()
            #expect(outcome.complete, "\(syncer.feed): \(String(describing: outcome.error))")
        }
        let emulatorDialect = EmulatorDialect(rawValue: dialect)!
        for feed in Feed.polled {
            // With api.ownsApp retweets also hold own posts reposted beyond retweets-of-me's reach.
            let truth = world.emulator.expectedMembers(feed, dialect: emulatorDialect)
            let stored = try await daemon.database.memberIDs(feed).map(\.description)
            #expect(stored == truth, "\(feed): stored \(stored.count), truth \(truth.count)")
            #expect(!truth.isEmpty)
        }
        // One row per tweet however many feeds carry it; some carry several.
        let (rows, distinct, shared) = try daemon.database.inspect { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM feedMembership")!,
             try Int.fetchOne(db, sql: "SELECT count(DISTINCT tweetId) FROM feedMembership")!,
             try Int.fetchOne(db, sql: "SELECT count(*) FROM (SELECT tweetId FROM feedMembership GROUP BY tweetId HAVING count(*) > 1)")!)
        }
        #expect(rows > distinct)
        #expect(shared > 0)
        let tweetRows = try daemon.database.inspect { try Int.fetchOne($0, sql: "SELECT count(*) FROM tweet")! }
        #expect(tweetRows >= distinct)
        // Every post has a conversation, in both dialects: its own id when it replies to nothing.
        let (unthreaded, ownConversation) = try daemon.database.inspect { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM tweet WHERE conversationId IS NULL")!,
             try Int.fetchOne(db, sql: "SELECT count(*) FROM tweet WHERE inReplyToId IS NULL AND conversationId = id")!)
        }
        #expect(unthreaded == 0)
        #expect(ownConversation == (try daemon.database.inspect { try Int.fetchOne($0, sql: "SELECT count(*) FROM tweet WHERE inReplyToId IS NULL")! }))

        // Retweets keep the original's full text; replies and quotes their links; authors apart.
        let home = try await daemon.database.feedItems(.home, limit: 1000)
        let retweet = try #require(home.first { $0.tweet.retweetOfID != nil })
        #expect(retweet.tweet.text.hasPrefix("RT @"))
        #expect(!retweet.tweet.text.hasSuffix("…"))
        #expect(home.contains { $0.tweet.inReplyToID != nil })
        #expect(home.contains { $0.tweet.quotedID != nil })
        #expect(home.allSatisfy { $0.author != nil })
        #expect(!home.contains { $0.tweet.text.contains("&amp;") || $0.tweet.text.contains("&lt;") })
        #expect(home.allSatisfy { $0.tweet.id.rawValue > 1 << 53 })

        // Nothing new: free, and one request per enabled feed, besides the own originals that
        // the retweets feed reads again, free the same UTC day as its deep check (every page,
        // as the first poll did; see FeedSyncer+Retweets).
        func ownReads() -> Int {
            world.emulator.requests.filter { $0.path.contains("user_timeline") || $0.path.hasSuffix("/tweets") }.count
        }
        let before = world.emulator.requests.count
        let ownBefore = ownReads()
        let paid = world.emulator.bill().total.micros
        for syncer in daemon.syncers { try await syncer.poll() }
        #expect(world.emulator.bill().total.micros == paid)
        #expect(ownReads() - ownBefore == ownBefore, "every page again")
        #expect(world.emulator.requests.count - before == daemon.syncers.count + ownBefore)
    }

    @Test(arguments: ["v2", "v1.1"])
    func newTweetsArriveIncrementally(dialect: String) async throws {
        let world = try TestWorld(dialect: dialect, tweets: 150)
        let daemon = try world.daemon()
        for syncer in daemon.syncers { try await syncer.poll() }
        let added = world.emulator.addTweets(to: .home, count: 30)
        let home = try #require(daemon.syncers.first { $0.feed == .home })
        let outcome = try await home.poll()
        #expect(outcome.newTweets == 30)
        let stored = Set(try await daemon.database.memberIDs(.home).map(\.description))
        #expect(Set(added).isSubset(of: stored))
        #expect(try await daemon.database.memberIDs(.home).map(\.description) == world.emulator.groundTruth(.home, dialect: EmulatorDialect(rawValue: dialect)!))
    }
}
