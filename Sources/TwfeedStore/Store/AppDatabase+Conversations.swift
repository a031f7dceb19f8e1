import GRDB
import Logging
import TwfeedCore

/// Every stored post has a conversation (`conversationId` is never NULL): its own id when
/// it replies to nothing. v2 answers `conversation_id`; v1.1 has no such field, so a v1.1
/// reply's is worked out from the chain stored:
///
/// - the parent is stored: the parent's conversation;
/// - it is not: the parent's id, for now. So a stored `conversationId` is always the
///   root's id, or the id of the first post not stored on the way up. When that post
///   arrives, every post that named it takes the new post's conversation (one indexed
///   UPDATE: `tweet_conversation` holds only the replies), so the thread converges on
///   its root as its posts come, and posts stored together agree at every step.
extension AppDatabase {
    /// Migration "v16: every post has a conversation": the replies' index the fix-up
    /// walks, and the posts that reply to nothing made their own conversation; the v1.1
    /// replies stored without one are filled by `fillConversations`.
    static let conversationSchema = """
        CREATE INDEX tweet_conversation ON tweet(conversationId) WHERE conversationId <> id;
        UPDATE tweet SET conversationId = id WHERE conversationId IS NULL AND inReplyToId IS NULL;
        """

    /// The fix-up's statement: the posts that named `?2` (not stored until now) as their
    /// conversation take `?1`. Its WHERE repeats the partial index's condition so SQLite
    /// uses it (the query-plan test checks).
    static let followConversationSQL = "UPDATE tweet SET conversationId = ?1 WHERE conversationId = ?2 AND conversationId <> id"

    /// The Swift half of v16: the replies without a conversation, oldest first, so a
    /// parent (always older than its reply) is settled before its replies read it.
    @Sendable static func fillConversations(_ db: Database, _ logger: Logger) throws {
        let rows = try Row.fetchAll(db, sql: "SELECT id, inReplyToId FROM tweet WHERE conversationId IS NULL ORDER BY id")
        let parent = try db.makeStatement(sql: StoreQueries.conversationOf.sql)
        let set = try db.makeStatement(sql: "UPDATE tweet SET conversationId = ? WHERE id = ?")
        for row in rows {
            let id: Int64 = row[0]
            let replyTo: Int64? = row[1]
            let conversation = try replyTo.map { try Int64.fetchOne(parent, arguments: [$0]) ?? $0 } ?? id
            try set.execute(arguments: [conversation, id])
        }
    }

    /// Gives each of `tweets` (just written) its conversation, oldest first, and moves
    /// the posts that named one of them as their conversation to that post's.
    static func settleConversations(_ tweets: [Tweet], _ db: Database) throws {
        guard !tweets.isEmpty else { return }
        let read = try db.cachedStatement(sql: StoreQueries.conversationOf.sql)
        let set = try db.cachedStatement(sql: "UPDATE tweet SET conversationId = ? WHERE id = ?")
        let follow = try db.cachedStatement(sql: followConversationSQL)
        var settled: Set<TweetID> = []
        for tweet in tweets.sorted(by: { $0.id < $1.id }) where settled.insert(tweet.id).inserted {
            let conversation: TweetID
            if let given = tweet.conversationID {
                conversation = given
            } else if let parent = tweet.inReplyToID {
                // The parent's, when stored; else what this post held (a v2 answer's,
                // kept when v1.1 reads it again); else the parent's id, until it comes.
                let known = try Int64.fetchOne(read, arguments: [parent.rawValue]) ?? Int64.fetchOne(read, arguments: [tweet.id.rawValue])
                conversation = known.map(TweetID.init) ?? parent
                try set.execute(arguments: [conversation.rawValue, tweet.id.rawValue])
            } else {
                conversation = tweet.id
                try set.execute(arguments: [conversation.rawValue, tweet.id.rawValue])
            }
            if conversation != tweet.id { try follow.execute(arguments: [conversation.rawValue, tweet.id.rawValue]) }
        }
    }
}
