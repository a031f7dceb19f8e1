import Foundation
import Testing
@testable import TwfeedCore
@testable import TwfeedKit
@testable import TwfeedStore

/// Whom a reply answers, when its parent is not stored (deleted, protected, not fetched
/// yet): `feed --json`'s and `show --json`'s `inReplyTo.username` come from what the
/// reply's own answer said, in both dialects, never from its text. A stored parent's
/// author comes first: a rename is then current.
@Suite struct ReplyingToTests {
    /// A v2 post by user 11 replying to `parent` (not on the page), as a timeline gives it.
    static func v2Reply(_ id: Int64, parent: Int64, userID: String?, text: String, mentions: [(String, String)]) -> String {
        let mentionList = mentions.map { #"{"start":0,"end":4,"username":"\#($0.0)","id":"\#($0.1)"}"# }.joined(separator: ",")
        return #"""
            {"id":"\#(id)","author_id":"11","created_at":"2026-11-25T10:00:00.000Z","text":"\#(text)","conversation_id":"\#(parent)",
             \#(userID.map { #""in_reply_to_user_id":"\#($0)","# } ?? "")
             "referenced_tweets":[{"type":"replied_to","id":"\#(parent)"}],"entities":{"mentions":[\#(mentionList)]}}
            """#
    }

    static let author = #"{"id":"11","username":"ann","name":"Ann"}"#

    /// A v2 page of `posts`, with `users` in `includes.users` and the parents reported gone.
    static func v2Page(_ posts: [String], users: [String] = [author], gone: [Int64]) -> TimelinePage {
        let errors = gone.map {
            #"{"resource_id":"\#($0)","parameter":"referenced_tweets.id","resource_type":"tweet","title":"Not Found Error","detail":"Could not find tweet with referenced_tweets.id: [\#($0)].","type":"https://api.twitter.com/2/problems/resource-not-found"}"#
        }
        let body = #"{"data":[\#(posts.joined(separator: ","))],"includes":{"users":[\#(users.joined(separator: ","))]},"errors":[\#(errors.joined(separator: ","))],"meta":{"result_count":\#(posts.count)}}"#
        return try! PageParser.page(.v2, try! JSONValue.parse(body), rateLimit: nil)
    }

    static func store(_ page: TimelinePage, in database: AppDatabase, authors: [Author] = []) async throws {
        var page = page
        page.authors += authors
        _ = try await database.storePage(page, feed: .home, state: SyncState(feed: .home), now: Date())
    }

    /// The `inReplyTo` of each stored reply as `feed --json` prints it, by post id.
    static func feedJSON(_ database: AppDatabase) async throws -> [String: JSONValue] {
        var result: [String: JSONValue] = [:]
        for item in try await database.feedItems(.home, limit: 100) {
            var bytes: [UInt8] = []
            item.appendJSON(to: &bytes)
            let object = try JSONValue.parse(bytes)
            result[object["id"]?.string ?? "?"] = object["inReplyTo"]
        }
        return result
    }

    /// `show ID --json`'s post, its `inReplyTo`.
    static func showJSON(_ id: Int64, _ database: AppDatabase) async throws -> JSONValue? {
        let conversation = try #require(try await database.conversation(TweetID(id)))
        var bytes: [UInt8] = []
        conversation.appendJSON(to: &bytes)
        return try JSONValue.parse(bytes)["tweet"]?["inReplyTo"]
    }

    static func replyingTo(_ parent: Int64, _ username: String?) -> JSONValue {
        .object(["id": .string(String(parent)), "username": username.map(JSONValue.string) ?? .null])
    }

    @Test func aV2TimelineReplyWhoseParentIsGoneNamesWhomItAnswersFromItsMentionOrTheStoredUser() async throws {
        let database = try AppDatabase.inMemory()
        // Cy is stored under the handle Cy has now; the reply's text was written to the old one.
        try await Self.store(TimelinePage(tweets: [], authors: [Author(id: UserID(22), username: "cy_now", name: "Cy")], nextPageToken: nil),
                             in: database)
        let page = Self.v2Page([
            Self.v2Reply(101, parent: 901, userID: "21", text: "@bea yes", mentions: [("bea", "21")]),
            Self.v2Reply(102, parent: 902, userID: "22", text: "@cy_then yes", mentions: [("cy_then", "22")]),
            // The text starts with a handle, but no entity says whom: no name is made up.
            Self.v2Reply(103, parent: 903, userID: "23", text: "@dee yes", mentions: []),
            // A mention of someone else is not whom it answers.
            Self.v2Reply(104, parent: 904, userID: "24", text: "@eve yes", mentions: [("eve", "99")]),
            // No in_reply_to_user_id: nothing to match a mention with.
            Self.v2Reply(105, parent: 905, userID: nil, text: "@fay yes", mentions: [("fay", "25")]),
        ], gone: [901, 902, 903, 904, 905])
        try await Self.store(page, in: database)

        let json = try await Self.feedJSON(database)
        #expect(json["101"] == Self.replyingTo(901, "bea"), "the mention of in_reply_to_user_id")
        #expect(json["102"] == Self.replyingTo(902, "cy_now"), "the stored user of that id before the mention")
        #expect(json["103"] == Self.replyingTo(903, nil))
        #expect(json["104"] == Self.replyingTo(904, nil))
        #expect(json["105"] == Self.replyingTo(905, nil))
        #expect(try await Self.showJSON(101, database) == Self.replyingTo(901, "bea"), "show --json, alike")
        let item = try #require(try await database.feedItem(TweetID(101)))
        #expect(item.inReplyTo?.stored == false && item.inReplyTo?.username == "bea")
    }

    @Test func aV2AnswersIncludedUserComesBeforeTheStoredOneAndTheMention() async throws {
        let database = try AppDatabase.inMemory()
        try await Self.store(TimelinePage(tweets: [], authors: [Author(id: UserID(24), username: "eve_stored", name: "Eve")], nextPageToken: nil),
                             in: database)
        // A lookup expands users: the parent's author is in `includes.users` though the parent is gone.
        let page = Self.v2Page([Self.v2Reply(106, parent: 906, userID: "24", text: "@eve_then yes", mentions: [("eve_then", "24")])],
                               users: [Self.author, #"{"id":"24","username":"eve_now","name":"Eve"}"#], gone: [906])
        try await Self.store(page, in: database)
        #expect(try await Self.feedJSON(database)["106"] == Self.replyingTo(906, "eve_now"))
        #expect(try await Self.showJSON(106, database) == Self.replyingTo(906, "eve_now"))

        // Read again by a page that names nobody (no user id, no mention): what was said is kept.
        let again = Self.v2Page([Self.v2Reply(106, parent: 906, userID: nil, text: "yes", mentions: [])], gone: [906])
        try await Self.store(again, in: database)
        #expect(try await Self.feedJSON(database)["106"] == Self.replyingTo(906, "eve_now"))
    }

    @Test func aV11ReplyWhoseParentIsMissingNamesItsScreenName() async throws {
        let database = try AppDatabase.inMemory()
        let body = #"""
            [{"id":1900000000000000201,"id_str":"1900000000000000201","created_at":"Wed Nov 25 10:00:00 +0000 2026","full_text":"thanks!",
              "in_reply_to_status_id":1900000000000000200,"in_reply_to_status_id_str":"1900000000000000200",
              "in_reply_to_user_id":31,"in_reply_to_user_id_str":"31","in_reply_to_screen_name":"gil",
              "user":{"id":11,"id_str":"11","screen_name":"ann","name":"Ann"},"entities":{"user_mentions":[]}},
             {"id":1900000000000000202,"id_str":"1900000000000000202","created_at":"Wed Nov 25 10:01:00 +0000 2026","full_text":"plain",
              "in_reply_to_status_id":null,"in_reply_to_status_id_str":null,"in_reply_to_user_id":null,"in_reply_to_user_id_str":null,
              "in_reply_to_screen_name":null,"user":{"id":11,"id_str":"11","screen_name":"ann","name":"Ann"}}]
            """#
        try await Self.store(try PageParser.page(.v1_1, try JSONValue.parse(body), rateLimit: nil), in: database)
        let json = try await Self.feedJSON(database)
        #expect(json["1900000000000000201"] == Self.replyingTo(1_900_000_000_000_000_200, "gil"))
        #expect(json["1900000000000000202"] == .null)
        #expect(try await Self.showJSON(1_900_000_000_000_000_201, database) == Self.replyingTo(1_900_000_000_000_000_200, "gil"))
    }

    /// The parent stored: its author's handle as stored now (renamed since the reply was
    /// read), not what the reply's answer said then.
    @Test func aStoredParentsAuthorComesFirstSoARenameIsCurrent() async throws {
        let database = try AppDatabase.inMemory()
        let parent = #"{"id":"907","author_id":"26","created_at":"2026-11-25T09:00:00.000Z","text":"the parent","conversation_id":"907"}"#
        let body = #"{"data":[\#(Self.v2Reply(107, parent: 907, userID: "26", text: "@hal yes", mentions: [("hal", "26")]))],"includes":{"tweets":[\#(parent)],"users":[\#(Self.author),{"id":"26","username":"hal","name":"Hal"}]}}"#
        try await Self.store(try PageParser.page(.v2, try JSONValue.parse(body), rateLimit: nil), in: database)
        #expect(try await Self.feedJSON(database)["107"] == Self.replyingTo(907, "hal"))
        try await Self.store(TimelinePage(tweets: [], authors: [Author(id: UserID(26), username: "hal_renamed", name: "Hal")], nextPageToken: nil),
                             in: database)
        #expect(try await Self.feedJSON(database)["107"] == Self.replyingTo(907, "hal_renamed"))
        #expect(try await Self.showJSON(107, database) == Self.replyingTo(907, "hal_renamed"))
    }
}
