import Foundation
import GRDB
import Testing
@testable import TwfeedCore
@testable import TwfeedStore

/// `conversationId` is never null for a stored post (docs/INTERFACE.md): a post that
/// replies to nothing is its own conversation; a v1.1 reply (no `conversation_id` in
/// the dialect) takes its stored parent's, else its parent's id until that arrives.
@Suite struct ConversationIDTests {
    static let ada = Author(id: UserID(1), username: "ada", name: "Ada")

    /// A post as v1.1 gives it: a conversation only when it replies to nothing.
    static func v11(_ id: Int64, replyTo: Int64? = nil) -> Tweet {
        Tweet(id: TweetID(id), authorID: ada.id, createdAt: Date(timeIntervalSince1970: Double(id)), text: "post \(id)",
              inReplyToID: replyTo.map(TweetID.init), conversationID: replyTo == nil ? TweetID(id) : nil)
    }

    static func store(_ tweets: [Tweet], referenced: [Tweet] = [], in database: AppDatabase) async throws {
        _ = try await database.storePage(
            TimelinePage(tweets: tweets, referencedTweets: referenced, authors: [ada], nextPageToken: nil),
            feed: .home, state: SyncState(feed: .home), now: Date())
    }

    static func conversations(_ database: AppDatabase) throws -> [Int64: Int64?] {
        try database.inspect { db in
            Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT id, conversationId FROM tweet").map { ($0[0] as Int64, $0[1] as Int64?) })
        }
    }

    @Test func aThreadStoredFromTheBottomUpConvergesOnItsRootAsItsPostsCome() async throws {
        let database = try AppDatabase.inMemory()
        // 10 <- 11 <- 12 <- 13, and 14 replies to 12; stored 13 and 14 first, then 12, 11, 10.
        try await Self.store([Self.v11(13, replyTo: 12), Self.v11(14, replyTo: 12)], in: database)
        #expect(try Self.conversations(database) == [13: 12, 14: 12], "the parent's id while the parent is not stored")
        try await Self.store([Self.v11(12, replyTo: 11)], in: database)
        #expect(try Self.conversations(database) == [12: 11, 13: 11, 14: 11])
        try await Self.store([Self.v11(11, replyTo: 10)], in: database)
        #expect(try Self.conversations(database) == [11: 10, 12: 10, 13: 10, 14: 10])
        try await Self.store([Self.v11(10)], in: database)
        #expect(try Self.conversations(database) == [10: 10, 11: 10, 12: 10, 13: 10, 14: 10], "every post names the root")
        let item = try #require(try await database.feedItems(.home, limit: 10).first { $0.tweet.id == TweetID(14) })
        var json: [UInt8] = []
        item.appendJSON(to: &json)
        #expect(try JSONValue.parse(json)["conversationId"] == .string("10"), "feed --json says it")
    }

    @Test func aPageWithItsChainTopDownAgreesAtOnce() async throws {
        let database = try AppDatabase.inMemory()
        // The page lists newest first; the parents come along as referenced posts.
        try await Self.store([Self.v11(22, replyTo: 21), Self.v11(23)], referenced: [Self.v11(21, replyTo: 20), Self.v11(20)], in: database)
        #expect(try Self.conversations(database) == [20: 20, 21: 20, 22: 20, 23: 23])
    }

    @Test func whatV2SaidIsKeptWhenV11ReadsThePostAgain() async throws {
        let database = try AppDatabase.inMemory()
        var fromV2 = Self.v11(31, replyTo: 30)
        fromV2.conversationID = TweetID(5)
        try await Self.store([fromV2], in: database)
        try await Self.store([Self.v11(31, replyTo: 30), Self.v11(32, replyTo: 31)], in: database)
        #expect(try Self.conversations(database) == [31: 5, 32: 5])
    }

    /// A database from before v16: the posts that reply to nothing and the v1.1 replies
    /// have no conversation; the migration fills them as the store would have.
    @Test func theMigrationFillsEveryNullConversation() async throws {
        let older = try OlderDatabase(before: "v16: every post has a conversation")
        defer { older.remove() }
        try await older.queue.write { db in
            let insert = try db.makeStatement(
                sql: "INSERT INTO tweet (id, authorId, createdAt, text, inReplyToId, conversationId, raw, fetchedAt) VALUES (?, 1, 0, 't', ?, ?, '{}', 0)")
            // 1 <- 2 <- 3 (v1.1), 5 replies to 4 (not stored), 7 replies to 6 with v2's conversation 6, 8 replies to 7.
            for (id, replyTo, conversation) in [(1, nil, nil), (2, 1, nil), (3, 2, nil), (5, 4, nil), (7, 6, 6), (8, 7, nil)] as [(Int64, Int64?, Int64?)] {
                try insert.execute(arguments: [id, replyTo, conversation])
            }
        }
        let database = try older.openMigrated()
        #expect(try Self.conversations(database) == [1: 1, 2: 1, 3: 1, 5: 4, 7: 6, 8: 6])
    }

    /// The fix-up runs for every reply stored: it must find the posts that named the new
    /// one through the replies' index, never by reading every post.
    @Test func theFixUpSearchesTheRepliesIndex() async throws {
        let database = try await PopulatedStore.make()
        let plan = try QueryPlanTests.plan(AppDatabase.followConversationSQL, in: database)
        #expect(plan.contains { $0.contains("tweet_conversation") }, "\(plan)")
        #expect(QueryPlanTests.problems(plan, allowance: nil).isEmpty, "\(plan)")
    }
}
