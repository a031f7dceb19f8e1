import Foundation
import GRDB
import Testing
@testable import TwfeedCore
@testable import TwfeedStore

/// Migration "v20: whom a reply answers": a reply stored before it whose parent is not
/// stored gets whom it answers from its stored answer, by the rules the store follows at
/// ingest; one whose parent is stored keeps NULL and is named by the parent's author.
@Suite struct ReplyUsernameMigrationTests {
    @Test func theMigrationNamesWhomOldRepliesAnswerFromTheirStoredAnswers() async throws {
        let older = try OlderDatabase(before: "v20: whom a reply answers")
        defer { older.remove() }
        let rows: [(id: Int64, replyTo: Int64?, author: Int64, raw: String)] = [
            // v1.1 (and the archive): the screen name, though user 31 is stored under another handle.
            (1, 900, 1, #"{"id_str":"1","in_reply_to_status_id_str":"900","in_reply_to_user_id":31,"in_reply_to_screen_name":"gil"}"#),
            // v2: the mention of in_reply_to_user_id.
            (2, 900, 1, #"{"id":"2","in_reply_to_user_id":"21","entities":{"mentions":[{"username":"eve","id":"99"},{"username":"bea","id":"21"}]}}"#),
            // v2: the stored user of that id before the mention.
            (3, 900, 1, #"{"id":"3","in_reply_to_user_id":"31","entities":{"mentions":[{"username":"gil_then","id":"31"}]}}"#),
            // v2 with nothing to say but a handle in the text: nobody.
            (4, 900, 1, #"{"id":"4","text":"@dee hi","in_reply_to_user_id":"23"}"#),
            // Not JSON: nobody, and the migration still runs.
            (5, 900, 1, #"{"in_reply_to_screen_name": not json"#),
            // The parent (6) and its author (1) stored: readers name the parent's author.
            (6, nil, 1, "{}"),
            (7, 6, 1, #"{"id_str":"7","in_reply_to_status_id_str":"6","in_reply_to_screen_name":"ada_then"}"#),
            // The parent (8) stored without its author (50): the answer says whom.
            (8, nil, 50, "{}"),
            (9, 8, 1, #"{"id_str":"9","in_reply_to_status_id_str":"8","in_reply_to_screen_name":"zed"}"#),
            // Not a reply.
            (10, nil, 1, #"{"id_str":"10","in_reply_to_screen_name":"nobody"}"#),
        ]
        try await older.queue.write { db in
            try db.execute(sql: "INSERT INTO user (id, username, name, updatedAt) VALUES (1, 'ada', 'Ada', 0), (31, 'gil_now', 'Gil', 0)")
            let insert = try db.makeStatement(
                sql: "INSERT INTO tweet (id, authorId, createdAt, text, inReplyToId, conversationId, raw, fetchedAt) VALUES (?, ?, ?, 't', ?, ?, ?, 0)")
            for row in rows {
                try insert.execute(arguments: [row.id, row.author, Double(row.id), row.replyTo, row.replyTo ?? row.id, row.raw])
                try db.execute(sql: "INSERT INTO feedMembership (account, feed, tweetId, addedAt) VALUES (0, 'home', ?, 0)", arguments: [row.id])
            }
        }
        let database = try older.openMigrated()
        let stored = try database.inspect { db in
            Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT id, inReplyToUsername FROM tweet").map { ($0[0] as Int64, $0[1] as String?) })
        }
        #expect(stored == [1: "gil", 2: "bea", 3: "gil_now", 4: nil, 5: nil, 6: nil, 7: nil, 8: nil, 9: "zed", 10: nil])
        // What the readers show: the stored parent's author first, else the column.
        let shown = Dictionary(uniqueKeysWithValues: try await database.feedItems(.home, limit: 20).map { ($0.tweet.id.rawValue, $0.inReplyTo?.username) })
        #expect(shown == [1: "gil", 2: "bea", 3: "gil_now", 4: nil, 5: nil, 6: nil, 7: "ada", 8: nil, 9: "zed", 10: nil])
    }
}
