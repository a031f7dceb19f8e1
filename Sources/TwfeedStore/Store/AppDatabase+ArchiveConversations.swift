import GRDB
import TwfeedCore

/// An archive's replies are inserted with their conversations, worked out from the batch
/// and one read of what is stored, instead of being settled row by row after the insert
/// (`settleConversations`: a read and a rewrite of each reply's 1.4 KB row, 0.31 of the
/// store's 3.2 CPU-s for 100,000 posts; docs/PERFORMANCE.md, "Importing the archive").
/// The outcome is settling's: oldest first, each reply takes its parent's conversation
/// (the parent new in the batch, or stored), else its parent's id; then the posts stored
/// before that named a new reply as their conversation take the reply's.
extension AppDatabase {
    /// The conversation each new reply of the batch is inserted with. `stored`: the
    /// conversations of the batch's posts and parents stored before it.
    static func archiveConversations(_ added: [Tweet], stored: [TweetID: TweetID]) -> [TweetID: TweetID] {
        // The batch's new posts that reply to nothing, as they are inserted.
        var roots: [TweetID: TweetID] = [:]
        for tweet in added where tweet.inReplyToID == nil { roots[tweet.id] = tweet.conversationID ?? tweet.id }
        var conversations: [TweetID: TweetID] = [:]
        for tweet in added.sorted(by: { $0.id < $1.id }) {
            guard let parent = tweet.inReplyToID else { continue }
            if let given = tweet.conversationID {
                conversations[tweet.id] = given
                continue
            }
            let known = conversations[parent] ?? roots[parent] ?? stored[parent] ?? parent
            // A stored parent may name a reply new in this batch (its own parent was
            // missing until now): settling that reply first moved the parent on.
            conversations[tweet.id] = conversations[known] ?? known
        }
        return conversations
    }

    /// After the insert, oldest first: the posts stored before that named one of the new
    /// replies as their conversation take the reply's (`settleConversations`' fix-up).
    static func followArchiveConversations(_ conversations: [TweetID: TweetID], _ db: Database) throws {
        let follow = try db.cachedStatement(sql: followConversationSQL)
        for (reply, conversation) in conversations.sorted(by: { $0.key < $1.key }) where conversation != reply {
            try follow.execute(arguments: [conversation.rawValue, reply.rawValue])
        }
    }
}
