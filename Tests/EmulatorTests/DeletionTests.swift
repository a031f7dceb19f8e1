import Foundation
import Testing
import TwfeedEmulator

/// `DELETE /2/tweets/:id` and v1.1 `statuses/destroy/:id.json`: the account's own post
/// leaves every timeline and lookup; another user's is refused; a gone one answers as
/// the docs read literally (or as set).
@Suite struct DeletionTests {
    @Test func deletingOwnPostRemovesItEverywhere() throws {
        try withEmulator { emulator, client in
            let posted = try client.send("POST", "/2/tweets", json: #"{"text":"soon gone"}"#)
            let id = try #require(posted.object[path: "data", "id"] as? String)
            #expect(ids(try client.get(homePath, [("max_results", "5")])).first == id)

            let deleted = try client.send("DELETE", "/2/tweets/\(id)")
            #expect(deleted.status == 200)
            #expect(deleted.object[path: "data", "deleted"] as? Bool == true)
            #expect(emulator.requests.last?.endpoint == "delete")

            #expect(!ids(try client.get(homePath, [("max_results", "5")])).contains(id))
            #expect(!ids(try client.get("/2/users/\(Emulator.accountUserID)/tweets", [("max_results", "5")])).contains(id))
            let lookup = try client.get("/2/tweets", [("ids", id)])
            #expect(lookup.object["data"] == nil)
            #expect((lookup.object["errors"] as? [[String: Any]])?.first?["title"] as? String == "Not Found Error")
            #expect(try client.get("/1.1/statuses/show.json", [("id", id)]).status == 404)
            #expect(!emulator.groundTruth(.home, dialect: .v2).contains(id))
            #expect(emulator.tweet(id)?.unavailable == .deleted)
            #expect(emulator.postedStatuses.last?.deletedAt != nil)
            #expect(emulator.deletions.map(\.id) == [id] && emulator.deletions.first?.dialect == .v2)
            // Gone, the same text may be posted again.
            #expect(try client.send("POST", "/2/tweets", json: #"{"text":"soon gone"}"#).status == 201)
        }
    }

    @Test func deletingAGonePostAnswersDeletedFalseOrNotFoundAsSet() throws {
        try withEmulator { emulator, client in
            let id = try #require(try client.send("POST", "/2/tweets", json: #"{"text":"once"}"#).object[path: "data", "id"] as? String)
            #expect(try client.send("DELETE", "/2/tweets/\(id)").object[path: "data", "deleted"] as? Bool == true)
            for target in [id, "42"] {
                let again = try client.send("DELETE", "/2/tweets/\(target)")
                #expect(again.status == 200 && again.object[path: "data", "deleted"] as? Bool == false, "\(target)")
            }
            emulator.setGoneDeletion(.notFound)
            let notFound = try client.send("DELETE", "/2/tweets/\(id)")
            #expect(notFound.status == 404 && notFound.object["title"] as? String == "Not Found Error")
            #expect(emulator.deletions.count == 1)
            #expect(emulator.bill().total.count(.postDelete) == 1, "only a deletion is billed")
            #expect(try client.send("DELETE", "/2/tweets/12ab").status == 400)
        }
    }

    @Test func anotherUsersPostIsNotTheAccountsToDelete() throws {
        try withEmulator { emulator, client in
            let stranger = try #require(emulator.allTweetIDs(.home).first { emulator.tweet($0)?.authorID != Emulator.accountUserID })
            let v2 = try client.send("DELETE", "/2/tweets/\(stranger)")
            #expect(v2.status == 403)
            let v11 = try client.send("POST", "/1.1/statuses/destroy/\(stranger).json")
            #expect(v11.status == 403)
            #expect((v11.object["errors"] as? [[String: Any]])?.first?["code"] as? Int == 183)
            #expect(emulator.tweet(stranger)?.unavailable == nil && emulator.deletions.isEmpty)
        }
    }

    @Test func v11DestroyAnswersTheDeletedStatus() throws {
        try withEmulator { emulator, client in
            let posted = try client.send("POST", "/1.1/statuses/update.json", form: [("status", "v1.1 & gone")])
            let id = try #require(posted.object["id_str"] as? String)
            let destroyed = try client.send("POST", "/1.1/statuses/destroy/\(id).json", query: [("tweet_mode", "extended")])
            #expect(destroyed.status == 200)
            #expect(destroyed.object["id_str"] as? String == id && destroyed.object["full_text"] as? String == "v1.1 &amp; gone")
            #expect(!emulator.groundTruth(.home, dialect: .v1_1).contains(id))
            let again = try client.send("POST", "/1.1/statuses/destroy/\(id).json")
            #expect(again.status == 404 && (again.object["errors"] as? [[String: Any]])?.first?["code"] as? Int == 144)
            #expect(emulator.deletions.map(\.dialect) == [.v1_1])
            #expect(emulator.bill().total.count(.postDelete) == 1)
        }
    }

    @Test func aDeletedThreadPartLeavesItsReplyPointingAtAGonePost() throws {
        try withEmulator { emulator, client in
            let root = try #require(try client.send("POST", "/2/tweets", json: #"{"text":"1/2"}"#).object[path: "data", "id"] as? String)
            let reply = try client.send("POST", "/2/tweets", json: #"{"text":"2/2","reply":{"in_reply_to_tweet_id":"\#(root)"}}"#)
            let child = try #require(reply.object[path: "data", "id"] as? String)
            #expect(try client.send("DELETE", "/2/tweets/\(root)").status == 200)
            let page = try client.get("/2/tweets", [("ids", child), ("tweet.fields", "referenced_tweets"), ("expansions", "referenced_tweets.id")])
            #expect(ids(page) == [child])
            #expect((page.object["errors"] as? [[String: Any]])?.first?["resource_id"] as? String == root)
            // A reply to a gone post is refused.
            #expect(try client.send("POST", "/2/tweets", json: #"{"text":"3/2","reply":{"in_reply_to_tweet_id":"\#(root)"}}"#).status == 403)
        }
    }
}
