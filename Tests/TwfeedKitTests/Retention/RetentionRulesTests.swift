import Foundation
import GRDB
import Testing
@testable import TwfeedKit
@testable import TwfeedCore
@testable import TwfeedStore

/// The reference rules of `storage.keepDays` (docs/INTERFACE.md, "Retention").
struct RetentionRulesTests {
    @Test func oldTweetsGoWithTheirTagsAndAuthorsUnlessAKeptTweetRefersToThem() async throws {
        let fixture = try RetentionFixture()
        defer { fixture.remove() }
        let old = 40.0, recent = 1.0
        // 1: old, replied to by the recent 10. 7: old, same author as 1, nothing refers to it.
        // 2 ← quoted by old 3 ← retweeted by recent 11: 3 is kept, 2 (a chain) is not.
        // 6: old, its author's only tweet, in two feeds. 12: recent.
        try await fixture.store([
            fixture.tweet(1, daysAgo: old, author: 100), fixture.tweet(7, daysAgo: old, author: 100),
            fixture.tweet(6, daysAgo: old, author: 600), fixture.tweet(10, daysAgo: recent, author: 200, replyTo: 1),
            fixture.tweet(11, daysAgo: recent, author: 200, retweetOf: 3), fixture.tweet(12, daysAgo: recent, author: 200),
        ], references: [
            fixture.tweet(3, daysAgo: old, author: 300, quoted: 2), fixture.tweet(2, daysAgo: old, author: 250),
        ])
        try await fixture.store([fixture.tweet(6, daysAgo: old, author: 600)], feed: .mentions)
        try fixture.database.tamper { db in
            try db.execute(sql: """
                INSERT INTO profileImage (authorId, sourceURL, size, url, file, lastUsedAt) VALUES
                (600, 'https://pbs.twimg.com/6_normal.png', 'normal', 'https://pbs.twimg.com/6_normal.png', 'ab/cd/six.png', 0),
                (100, 'https://pbs.twimg.com/1_normal.png', 'normal', 'https://pbs.twimg.com/1_normal.png', 'ab/cd/one.png', 0)
                """)
        }

        let report = try await fixture.pruner().prune()

        #expect(try fixture.tweetIDs() == [1, 3, 10, 11, 12])
        #expect(report.deletedTweets == 3 && report.keptTweets == 2)
        #expect(try fixture.memberships() == ["home:1", "home:10", "home:11", "home:12"])
        // The author of 6 and of 2 had nothing left; 100 still wrote 1, 300 wrote 3.
        #expect(try fixture.userIDs() == [100, 200, 300])
        #expect(report.deletedUsers == 2)
        #expect(try await fixture.database.profileImages().map(\.authorID) == [UserID(100)])
        let line = try #require(fixture.sink.events("prune.done").first)
        #expect(line.contains("deleted_tweets=3") && line.contains("deleted_users=2") && line.contains("kept_tweets=2"))
    }

    @Test func whatTheOutboxSentStaysAndKeepsWhatItRepliesTo() async throws {
        let fixture = try RetentionFixture()
        defer { fixture.remove() }
        try await fixture.store([fixture.tweet(20, daysAgo: 90, author: 1), fixture.tweet(21, daysAgo: 90, author: 1, replyTo: 22),
                           fixture.tweet(22, daysAgo: 90, author: 2), fixture.tweet(23, daysAgo: 90, author: 2)])
        let item = try await fixture.database.enqueue(text: "mine", replyTo: TweetID(22), now: fixture.clock.now())
        try await fixture.database.transitionOutbox(item.id, from: [.pending], to: .sent,
                                              changes: [.sentTweetID(TweetID(21)), .sentAt(fixture.clock.now())])

        let report = try await fixture.pruner().prune()

        #expect(try fixture.tweetIDs() == [21, 22])
        #expect(report.deletedTweets == 2)
        #expect(try fixture.userIDs() == [1, 2])
    }

    @Test func keepDaysZeroPrunesNothing() async throws {
        let fixture = try RetentionFixture()
        defer { fixture.remove() }
        try await fixture.store([fixture.tweet(1, daysAgo: 4000), fixture.tweet(2, daysAgo: 0)])
        let report = try await fixture.pruner(keepDays: 0).prune()
        #expect(report.deletedTweets == 0 && report.batches == 0)
        #expect(try fixture.tweetIDs() == [1, 2])
    }

    @Test func aTweetExactlyAtTheCutoffIsKept() async throws {
        let fixture = try RetentionFixture()
        defer { fixture.remove() }
        try await fixture.store([fixture.tweet(1, daysAgo: 30), fixture.tweet(2, daysAgo: 30.001)])
        try await fixture.pruner(keepDays: 30).prune()
        #expect(try fixture.tweetIDs() == [1])
    }

    @Test func manyTweetsGoOverSeveralShortTransactions() async throws {
        let fixture = try RetentionFixture()
        defer { fixture.remove() }
        // 1,050 old tweets of which every tenth is retweeted by a recent one.
        // Typed closures: inferred, these literals cost seconds of type-checking.
        let old = (1 ... 1050).map { (n: Int) in fixture.tweet(Int64(n), daysAgo: 60 + Double(n) / 1000, author: Int64(n % 7)) }
        let recent = (1 ... 105).map { (n: Int) in fixture.tweet(Int64(5000 + n), daysAgo: 1, author: 9, retweetOf: Int64(n * 10)) }
        try await fixture.store(old + recent)

        let report = try await fixture.pruner(batchSize: 100).prune()

        // 11 batches see the 1,050 old tweets, the 11th short: the walk moves past the kept ones.
        #expect(report.batches == 11)
        #expect(report.deletedTweets == 945 && report.keptTweets == 105)
        let retweeted: [Int64] = (1 ... 105).map { (n: Int) -> Int64 in Int64(n * 10) }
        let retweets: [Int64] = (1 ... 105).map { (n: Int) -> Int64 in Int64(5000 + n) }
        #expect(try fixture.tweetIDs() == Set(retweeted + retweets))
        #expect(fixture.sink.events("prune.done").first?.contains("batches=11") == true)
        // A second prune finds nothing more to do.
        #expect(try await fixture.pruner(batchSize: 100).prune().deletedTweets == 0)
    }

    @Test func prunedAuthorsPicturesLeaveTheCacheThroughTheJanitor() async throws {
        let images = try ImageFixture()
        defer { images.remove() }
        let stored = try await images.store.put(ImageFixture.png(1), format: .png)
        let subject = AppDatabase.ImageSubject(authorID: UserID(600), sourceURL: "https://pbs.twimg.com/6_normal.png", size: "normal",
                                               url: "https://pbs.twimg.com/6_normal.png", usedAt: images.clock.now())
        let author = Author(id: UserID(600), username: "six", name: "Six", profileImageURL: subject.sourceURL)
        let old = Tweet(id: TweetID(6), authorID: author.id, createdAt: images.clock.now().addingTimeInterval(-40 * 86_400), text: "old")
        try await images.database.storePage(TimelinePage(tweets: [old], authors: [author], nextPageToken: nil),
                                      feed: .home, state: SyncState(feed: .home), now: images.clock.now())
        _ = try await images.database.recordImageFetched(subject, file: stored.file, bytes: 100, etag: nil, lastModified: nil,
                                                         now: images.clock.now())

        try await Pruner(database: images.database, clock: images.clock, keepDays: 30, logger: images.logger).prune()
        let janitor = ImageJanitor(store: images.store, database: images.database, clock: images.clock, capBytes: 1 << 20,
                                   logger: images.logger)
        #expect(try await janitor.sweep().orphanFiles == 1)
        #expect(!images.store.exists(stored.file))
    }
}

struct PruneBatchSizeTests {
    /// A slow transaction (a loaded machine) makes the next one smaller, down to 25
    /// tweets; quick ones grow it back, never past the configured size.
    @Test func aSlowBatchHalvesTheNextAndQuickOnesGrowItBack() async throws {
        let fixture = try RetentionFixture()
        defer { fixture.remove() }
        let pruner = Pruner(database: fixture.database, clock: fixture.clock, keepDays: 1, logger: fixture.logger)
        #expect(pruner.next(500, took: 0.040, maximum: 500) == 250)
        #expect(pruner.next(30, took: 0.200, maximum: 500) == 25)
        #expect(pruner.next(25, took: 0.200, maximum: 500) == 25)
        // Within the budget but not a quarter of it: unchanged.
        #expect(pruner.next(250, took: Pruner.transactionBudget * 0.6, maximum: 500) == 250)
        #expect(pruner.next(250, took: Pruner.transactionBudget * 1.5, maximum: 500) == 125)
        #expect(pruner.next(250, took: Pruner.transactionBudget / 5, maximum: 500) == 500)
        #expect(pruner.next(500, took: Pruner.transactionBudget / 5, maximum: 500) == 500)
        #expect(fixture.pruner().next(500, took: 1, maximum: 500) == 500)
    }
}

struct RetentionQueryPlanTests {
    /// Each batch costs O(batch), whatever the size of the database: no step of the
    /// prune query scans a table or sorts.
    @Test func thePruneQueryWalksIndexesOnly() async throws {
        let fixture = try RetentionFixture()
        defer { fixture.remove() }
        let tweets = (1 ... 300).map { (id: Int64) -> Tweet in
            fixture.tweet(id, daysAgo: Double(id), replyTo: id > 1 ? id - 1 : nil, retweetOf: id > 2 ? id - 2 : nil, quoted: id > 3 ? id - 3 : nil)
        }
        try await fixture.store(tweets)
        let plan = try fixture.database.tamper { db in
            try db.execute(sql: "ANALYZE")
            return try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN \(AppDatabase.pruneCandidatesSQL)",
                                    arguments: ["cutoff": 0.0, "afterAt": 0.0, "afterId": 0, "limit": 500])
                .map { $0["detail"] as String }
        }
        #expect(plan.contains { $0.contains("USING INDEX tweet_createdAt") })
        #expect(plan.contains { $0.contains("USING INDEX tweet_inReplyTo") })
        #expect(plan.contains { $0.contains("USING INDEX tweet_retweetOf") })
        #expect(plan.contains { $0.contains("USING INDEX tweet_quoted") })
        for step in plan {
            #expect(!(step.hasPrefix("SCAN") && !step.contains("USING")), "a full scan: \(step)")
            #expect(!step.contains("TEMP B-TREE"), "a sort: \(step)")
        }
    }
}
