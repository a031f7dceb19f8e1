import Foundation
import Testing
import TwfeedEmulator

/// Reading what a tweet points at: v2 `GET /2/tweets` and `/2/tweets/:id`, v1.1
/// `statuses/lookup` and `statuses/show`; every post they return is a plain post read.
@Suite struct LookupTests {
    @Test func v2LookupsAnswerFoundPostsAndReportMissingOnes() throws {
        try withBillingEmulator { emulator, client in
            let home = emulator.groundTruth(.home, dialect: .v2)
            let missing = "1849000000000000001"
            let page = try client.get("/2/tweets", [("ids", "\(home[3]),\(missing),\(home[1])")] + clientFields)
            #expect(page.status == 200)
            #expect(ids(page) == [home[3], home[1]], "in the order asked")
            #expect(page.intHeader("x-rate-limit-limit") == 5_000)
            let errors = try #require(page.object["errors"] as? [[String: Any]])
            #expect(errors.first?["resource_id"] as? String == missing && errors.first?["parameter"] as? String == "ids")
            #expect(errors.first?["title"] as? String == "Not Found Error")
            let served = V2Resources(page)
            #expect(!served.users.isEmpty)
            var bill = emulator.bill()
            #expect(bill.endpoint(.lookup).micros == served.allPosts.count * Rate.postRead
                    + Set(served.users).count * Rate.userRead)
            #expect(bill.total.count(.ownedRead) == 0)

            let one = try client.get("/2/tweets/\(home[0])", [("tweet.fields", "author_id")])
            #expect(one.status == 200 && (one.object["data"] as? [String: Any])?["id"] as? String == home[0])
            let gone = try client.get("/2/tweets/\(missing)")
            #expect(gone.status == 200 && gone.object["data"] == nil && gone.object["errors"] != nil)
            bill = emulator.bill()
            #expect(bill.endpoint(.lookup).count(.postRead) == served.allPosts.union([home[0]]).count,
                    "the missing one is free")

            #expect(try client.get("/2/tweets").status == 400)
            #expect(try client.get("/2/tweets", [("ids", "x1")]).status == 400)
            let tooMany = (0..<101).map { _ in home[0] }.joined(separator: ",")
            #expect(try client.get("/2/tweets", [("ids", tooMany)]).status == 400)
            #expect(try client.get("/2/tweets", [("ids", home[0]), ("count", "1")]).status == 400)
        }
    }

    /// A user left out of lookups: the answer holds their post with `author_id` and no
    /// user for it (nor bills one), `GET /2/users?ids=` still answers them, v1.1 embeds
    /// them as always, and once no longer left out they come back.
    @Test func aUserLeftOutOfLookupsIsInTheirPostsButNotInIncludesUsers() throws {
        try withBillingEmulator { emulator, client in
            let home = emulator.groundTruth(.home, dialect: .v2)
            let author = try #require(emulator.tweet(home[0])?.authorID)
            #expect(emulator.leaveUserOutOfLookups(author))
            #expect(!emulator.leaveUserOutOfLookups("12"), "an unknown user")
            for path in ["/2/tweets", "/2/tweets/\(home[0])"] {
                let page = try client.get(path, (path == "/2/tweets" ? [("ids", home[0])] : []) + clientFields)
                #expect(page.status == 200)
                let data = page.object["data"] as? [String: Any] ?? (page.object["data"] as? [[String: Any]])?.first
                #expect(data?["author_id"] as? String == author)
                #expect(!V2Resources(page).users.contains(author), "\(path): the user is left out")
                #expect(page.object["errors"] == nil)
            }
            #expect(emulator.bill().endpoint(.lookup).count(.userRead) == 0, "nothing left out is billed")
            let users = try client.get("/2/users", [("ids", author), clientFields[2]])
            #expect((users.object["data"] as? [[String: Any]])?.first?["id"] as? String == author)
            let status = try client.get("/1.1/statuses/lookup.json", [("id", home[0])])
            #expect(V11Resources(status).users.contains(author), "v1.1 embeds the user")

            let control = TestClient(emulator: emulator, signer: nil)
            let back = try control.send("POST", "/_emulator/lookups-leave-out", json: #"{"user":"\#(author)","leaveOut":false}"#)
            #expect(back.status == 200 && back.object["leaveOut"] as? Bool == false)
            #expect(V2Resources(try client.get("/2/tweets", [("ids", home[0])] + clientFields)).users.contains(author))
            #expect(try control.send("POST", "/_emulator/lookups-leave-out", json: #"{"user":"\#(author)"}"#).status == 200)
            #expect(!V2Resources(try client.get("/2/tweets", [("ids", home[0])] + clientFields)).users.contains(author))
            #expect(try control.send("POST", "/_emulator/lookups-leave-out", json: #"{"user":"12"}"#).status == 404)
            #expect(try control.send("POST", "/_emulator/lookups-leave-out", json: #"{"user":"\#(author)","leaveOut":"yes"}"#).status == 400)
        }
    }

    @Test func v11LookupsLeaveMissingOnesOutAndShowAnswers144() throws {
        try withBillingEmulator { emulator, client in
            let home = emulator.groundTruth(.home, dialect: .v1_1)
            let missing = "1849000000000000001"
            let found = try client.get("/1.1/statuses/lookup.json", [("id", "\(home[2]),\(missing),\(home[0])")])
            #expect(found.status == 200)
            #expect(found.array.compactMap { $0["id_str"] as? String } == [home[2], home[0]])
            let mapped = try client.get("/1.1/statuses/lookup.json", [("id", "\(home[2]),\(missing)"), ("map", "true")])
            let map = try #require(mapped.object["id"] as? [String: Any])
            #expect(map[missing] is NSNull && (map[home[2]] as? [String: Any])?["id_str"] as? String == home[2])

            let shown = try client.get("/1.1/statuses/show.json", [("id", home[1]), ("tweet_mode", "extended")])
            #expect(shown.status == 200 && shown.object["id_str"] as? String == home[1])
            let absent = try client.get("/1.1/statuses/show.json", [("id", missing)])
            #expect(absent.status == 404 && absent.text.contains("\"code\":144"))
            #expect(try client.get("/1.1/statuses/lookup.json").status == 400)
            #expect(shown.intHeader("x-rate-limit-limit") == 900)

            let bill = emulator.bill()
            let reads = V11Resources(found).allPosts.union(V11Resources(shown).allPosts)
            #expect(bill.endpoint(.lookup).count(.postRead) == reads.count)
            #expect(bill.total.count(.ownedRead) == 0)
        }
    }
}
