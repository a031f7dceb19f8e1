import Foundation
import Testing
import TwfeedEmulator

/// What reads cost: per resource returned, once per UTC day, owned reads cheaper.
@Suite struct BillingReadTests {
    @Test func aV2PageCostsItsPostsAndUsersOncePerUTCDay() throws {
        try withBillingEmulator { emulator, client in
            let page = try v2HomePage(client)
            #expect(page.status == 200)
            let served = V2Resources(page)
            #expect(served.data.count == 20 && !served.includedPosts.isEmpty && !served.users.isEmpty,
                    "a page with includes, or the test proves little")
            let posts = served.allPosts.count, users = Set(served.users).count
            let expected = posts * Rate.postRead + users * Rate.userRead
            // A post both in `data` and in `includes.tweets` is one resource, charged once.
            let returned = served.data.count + served.includedPosts.count + users

            var bill = emulator.bill()
            #expect(bill.totalMicros == expected)
            #expect(bill.totalUSD == Double(expected) / 1_000_000)
            let today = bill.day("2026-11-25")
            #expect(today.count(.postRead) == posts && today.count(.userRead) == users && today.micros == expected)
            #expect(bill.endpoint(.home).micros == expected && bill.endpoint(.home).requests == 1)

            // The same page again the same UTC day: returned, not charged.
            #expect(try v2HomePage(client).status == 200)
            bill = emulator.bill()
            #expect(bill.totalMicros == expected)
            #expect(bill.day("2026-11-25").deduplicated == (returned - posts - users) + returned)
            #expect(bill.endpoint(.home).requests == 2)

            // Past UTC midnight on the emulator's clock: charged again, on the new day.
            moveClock(emulator, to: "2026-11-26T00:00:05Z")
            #expect(try v2HomePage(client).status == 200)
            bill = emulator.bill()
            #expect(bill.totalMicros == 2 * expected)
            #expect(bill.days.map(\.day) == ["2026-11-26", "2026-11-25"], "newest first")
            #expect(bill.day("2026-11-26").micros == expected)
        }
    }

    @Test func aV11PageCostsItsStatusesEmbeddedStatusesAndUsersOncePerUTCDay() throws {
        try withBillingEmulator { emulator, client in
            let page = try v11HomePage(client, count: 40)
            #expect(page.status == 200)
            let served = V11Resources(page)
            #expect(served.statuses.count >= 35 && !served.embedded.isEmpty, "retweets and quotes embed statuses")
            let expected = served.allPosts.count * Rate.postRead + served.users.count * Rate.userRead
            #expect(emulator.bill().totalMicros == expected)
            #expect(emulator.bill().day("2026-11-25").count(.userRead) == served.users.count)

            #expect(try v11HomePage(client, count: 40).status == 200)
            #expect(emulator.bill().totalMicros == expected, "the same UTC day")

            moveClock(emulator, to: "2026-11-26T00:00:05Z")
            #expect(try v11HomePage(client, count: 40).status == 200)
            #expect(emulator.bill().totalMicros == 2 * expected)

            // trim_user: the user stubs hold no user data and cost nothing.
            emulator.resetBill()
            let trimmed = try v11HomePage(client, count: 5, extra: [("trim_user", "true")])
            #expect(V11Resources(trimmed).users.isEmpty)
            #expect(emulator.bill().day("2026-11-26").count(.userRead) == 0)
            #expect(emulator.bill().day("2026-11-26").count(.postRead) == V11Resources(trimmed).allPosts.count,
                    "the reset forgot the day's reads too")
        }
    }

    @Test func anEmptySinceIDPollCostsNothingInEitherDialect() throws {
        try withBillingEmulator { emulator, client in
            let newest = emulator.groundTruth(.home, dialect: .v2)[0]
            let v2 = try client.get(homePath, [("since_id", newest)] + clientFields)
            #expect(v2.status == 200 && v2.object["data"] == nil)
            let v11 = try client.get("/1.1/statuses/home_timeline.json", [("since_id", newest)])
            #expect(v11.status == 200 && v11.array.isEmpty)
            let bill = emulator.bill()
            #expect(bill.totalMicros == 0)
            #expect(bill.total.requests == 2, "looked at, and free")
        }
    }

    @Test func ownMentionsAndPostsCostTheOwnedPriceWhenTheAccountOwnsTheApp() throws {
        try withBillingEmulator { emulator, client in
            let mentions = try client.get(mentionsPath, [("max_results", "20")] + clientFields)
            let served = V2Resources(mentions)
            #expect(served.data.count >= 15, "a page may run short by its deleted posts")
            let included = Set(served.includedPosts)
            let expected = served.data.count * Rate.ownedRead + included.count * Rate.postRead
                + Set(served.users).count * Rate.userRead
            var bill = emulator.bill()
            #expect(bill.totalMicros == expected)
            #expect(bill.total.count(.ownedRead) == served.data.count && bill.total.count(.postRead) == included.count)

            // v1.1: the account's own timelines likewise; home is a plain read.
            emulator.resetBill()
            let own = try client.get("/1.1/statuses/user_timeline.json", [("count", "10"), ("trim_user", "true")])
            let v11Mentions = try client.get("/1.1/statuses/mentions_timeline.json", [("count", "10"), ("trim_user", "true")])
            let home = try client.get("/1.1/statuses/home_timeline.json", [("count", "10"), ("trim_user", "true")])
            let ownServed = V11Resources(own), mentionsServed = V11Resources(v11Mentions), homeServed = V11Resources(home)
            bill = emulator.bill()
            #expect(bill.endpoint(.ownPosts).count(.ownedRead) == ownServed.statuses.count)
            #expect(bill.endpoint(.mentions).count(.ownedRead) == mentionsServed.statuses.count)
            #expect(bill.endpoint(.home).count(.ownedRead) == 0)
            #expect(bill.endpoint(.home).count(.postRead) + bill.endpoint(.home).deduplicated
                    == homeServed.statuses.count + homeServed.embedded.count)
            #expect(bill.endpoint(.ownPosts).micros == ownServed.statuses.count * Rate.ownedRead
                    + ownServed.embedded.count * Rate.postRead)

            // Once the account does not own the app, the same own posts cost the plain price.
            emulator.resetBill()
            emulator.setOwnsApp(false)
            let ownV2 = try client.get(ownPostsPath, [("max_results", "10")])
            let ownV2Served = V2Resources(ownV2)
            #expect(ownV2Served.data.count == 10 && ownV2Served.includedPosts.isEmpty)
            bill = emulator.bill()
            #expect(bill.endpoint(.ownPosts).count(.postRead) == 10 && bill.total.count(.ownedRead) == 0)
            #expect(bill.totalMicros == 10 * Rate.postRead)
        }
    }

    /// "Deduplicated per resource, across queries": a post is one resource whatever it
    /// cost, charged once a UTC day at the price of the day's first read.
    @Test func aPostIsChargedOnceADayAtTheFirstReadsPrice() throws {
        try withBillingEmulator { emulator, client in
            // Owned first: the lookup that returns the same posts after is free.
            let mentions = V2Resources(try client.get(mentionsPath, [("max_results", "5")]))
            let owned = emulator.bill().total
            #expect(owned.count(.ownedRead) == mentions.data.count && mentions.data.count > 0)
            let lookup = try client.get("/2/tweets", [("ids", mentions.data.joined(separator: ","))])
            #expect(lookup.status == 200)
            var bill = emulator.bill()
            #expect(bill.total.count(.postRead) == owned.count(.postRead), "no post charged again at the dearer price")
            #expect(bill.endpoint(.lookup).micros == 0)
            #expect(bill.endpoint(.lookup).deduplicated == mentions.data.count)

            // A plain read first: the owned read of the same post after is free, and the
            // post stays charged at $0.005.
            emulator.resetBill()
            moveClock(emulator, to: "2026-11-26T12:00:00Z")
            let first = try client.get("/2/tweets", [("ids", mentions.data.joined(separator: ","))])
            #expect(first.status == 200)
            _ = try client.get(mentionsPath, [("max_results", "5")])
            bill = emulator.bill()
            #expect(bill.total.count(.ownedRead) == 0)
            #expect(bill.total.count(.postRead) == mentions.data.count)
            #expect(bill.totalMicros == mentions.data.count * Rate.postRead)
        }
    }

    @Test func aClientThatDoesNotOwnTheAppPaysThePlainPriceForItsMentions() throws {
        try withBillingEmulator({ $0.billing.ownsApp = false }) { emulator, client in
            let mentions = try client.get(mentionsPath, [("max_results", "20")] + clientFields)
            let served = V2Resources(mentions)
            let expected = served.allPosts.count * Rate.postRead + Set(served.users).count * Rate.userRead
            #expect(emulator.bill().totalMicros == expected)
            #expect(emulator.bill().total.count(.ownedRead) == 0)
        }
    }

    @Test func whoAmICostsOneUserRead() throws {
        try withBillingEmulator { emulator, client throws in
            #expect(try client.get("/2/users/me").status == 200)
            #expect(emulator.bill().total.count(.userRead) == 1 && emulator.bill().totalMicros == Rate.userRead)
            moveClock(emulator, to: "2026-11-27T08:00:00Z")
            #expect(try client.get("/1.1/account/verify_credentials.json").status == 200)
            #expect(emulator.bill().totalMicros == 2 * Rate.userRead)
            #expect(emulator.bill().endpoint(.me).requests == 2)
        }
    }

    @Test func failedAnswersCostNothing() throws {
        try withBillingEmulator { emulator, client in
            // A bad parameter, a bad signature, an exhausted window, an injected 503.
            #expect(try client.get(homePath, [("count", "20")]).status == 400)
            let unsigned = TestClient(emulator: emulator, signer: nil)
            #expect(try unsigned.get(homePath).status == 401)
            emulator.setRateLimit(0, for: "mentions")
            #expect(try client.get(mentionsPath, clientFields).status == 429)
            emulator.inject(.status(503), pathContains: "reverse_chronological")
            #expect(try v2HomePage(client).status == 503)
            #expect(try client.get("/1.1/statuses/show.json", [("id", "42")]).status == 404)
            #expect(try client.send("POST", "/2/tweets", json: #"{"text":""}"#).status == 400)
            let bill = emulator.bill()
            #expect(bill.totalMicros == 0 && bill.total.requests == 0)

            // A fault that spoils an answer the server computed does not undo its charge.
            emulator.inject(.truncatedJSON, pathContains: "reverse_chronological")
            let truncated = try v2HomePage(client, count: 5)
            #expect(truncated.status == 200 && truncated.json == nil)
            #expect(emulator.bill().totalMicros > 0)
        }
    }
}
