import Foundation
import Testing
import TwfeedEmulator

/// The bill and its settings over HTTP, for tests that run the daemon as a subprocess.
@Suite struct BillingControlTests {
    @Test func theBillAsJSON() throws {
        try withBillingEmulator { emulator, client in
            let unsigned = TestClient(emulator: emulator, signer: nil)
            let empty = try unsigned.get("/_emulator/bill")
            #expect(empty.status == 200)
            #expect(empty.text.hasPrefix(#"{"totalUSD":0,"cycleUSD":0,"creditsUSD":null,"cycleStart":"2026-11-01","#))
            #expect((empty.object["days"] as? [Any])?.isEmpty == true)

            let page = V2Resources(try v2HomePage(client))
            #expect(try client.send("POST", "/2/tweets", json: #"{"text":"see example.com"}"#).status == 201)
            let reads = page.allPosts.count * Rate.postRead + Set(page.users).count * Rate.userRead
            let total = reads + Rate.postCreateWithURL

            let bill = try unsigned.get("/_emulator/bill")
            #expect(bill.status == 200)
            let object = bill.object
            #expect(object["totalUSD"] as? Double == Double(total) / 1_000_000)
            #expect(object["cycleUSD"] as? Double == Double(total) / 1_000_000)
            #expect(object["cycleStart"] as? String == "2026-11-01" && object["nextCycleStart"] as? String == "2026-12-01")
            #expect(object["cyclePostReads"] as? Int == page.allPosts.count)
            let days = try #require(object["days"] as? [[String: Any]])
            #expect(days.count == 1 && days[0]["day"] as? String == "2026-11-25")
            #expect(days[0]["usd"] as? Double == Double(total) / 1_000_000)
            let resources = try #require(days[0]["resources"] as? [String: Int])
            #expect(resources == ["post_read": page.allPosts.count, "owned_read": 0, "user_read": Set(page.users).count,
                                  "post_create": 0, "post_create_url": 1, "post_create_summoned": 0,
                                  "post_delete": 0, "media_upload": 0])
            #expect(object[path: "byEndpoint", "home", "usd"] as? Double == Double(reads) / 1_000_000)
            #expect(object[path: "byEndpoint", "post", "resources", "post_create_url"] as? Int == 1)
            #expect(object[path: "byEndpoint", "mentions"] == nil, "only endpoints with answers")
            // Dollars are written from whole micro-dollars: at most 6 decimals, no binary noise.
            let afterKey = try #require(bill.text.range(of: #""totalUSD":"#)).upperBound
            let literal = bill.text[afterKey...].prefix { $0.isNumber || $0 == "." }
            #expect(literal.contains(".") && literal.split(separator: ".")[1].count <= 6, "\(literal)")
            #expect(Double(String(literal)) == emulator.bill().totalUSD)

            // Credits appear once set; DELETE forgets the charges but not the credits.
            #expect(try unsigned.send("POST", "/_emulator/billing", json: #"{"creditsUSD":5.25}"#).status == 200)
            #expect(try unsigned.get("/_emulator/bill").object["creditsUSD"] as? Double == 5.25)
            #expect(try unsigned.send("DELETE", "/_emulator/bill").status == 200)
            let reset = try unsigned.get("/_emulator/bill").object
            #expect(reset["totalUSD"] as? Double == 0 && (reset["days"] as? [Any])?.isEmpty == true)
            #expect(reset["creditsUSD"] as? Double == 5.25)
            #expect(emulator.bill().totalMicros == 0)
            #expect(try v2HomePage(client).status == 200)
            #expect(emulator.bill().totalMicros == reads, "the reset forgot the day's reads too")
        }
    }

    @Test func settingsAreCheckedWholeBeforeAnyChanges() throws {
        try withBillingEmulator { emulator, client in
            let unsigned = TestClient(emulator: emulator, signer: nil)
            for body in [#"[1]"#, #"{"credits":5}"#, #"{"creditsUSD":-1}"#, #"{"creditsUSD":"5"}"#,
                         #"{"cycleStartDay":29}"#, #"{"cycleStartDay":0}"#, #"{"usageCapPostReads":1.5}"#,
                         #"{"notEnrolled":{"timeline":"client-not-enrolled"}}"#, #"{"notEnrolled":{"home":"nope"}}"#,
                         #"{"ownsApp":1}"#, #"{"prices":{"postRead":-0.1}}"#, #"{"prices":{"likes":0.1}}"#,
                         #"{"spendCapUSD":1,"prices":{"postRead":"cheap"}}"#] {
                let answer = try unsigned.send("POST", "/_emulator/billing", json: body)
                #expect(answer.status == 400, "\(body)")
                #expect(answer.object["error"] is String, "\(body)")
            }
            let settings = try unsigned.get("/_emulator/billing").object
            #expect(settings["spendCapUSD"] is NSNull, "the 400 changed nothing")
            #expect(settings["usageCapPostReads"] as? Int == 3_000_000)
            #expect(settings["ownsApp"] as? Bool == true && settings["repliesRequireSummons"] as? Bool == false)
            #expect(settings[path: "prices", "postCreateWithURL"] as? Double == 0.2)

            // Prices set over HTTP apply to the next charge.
            let changed = try unsigned.send("POST", "/_emulator/billing",
                                            json: #"{"prices":{"postRead":0.01,"userRead":0},"cycleStartDay":15,"ownsApp":false}"#)
            #expect(changed.status == 200)
            #expect(changed.object[path: "prices", "postRead"] as? Double == 0.01)
            #expect(changed.object["cycleStartDay"] as? Int == 15 && changed.object["ownsApp"] as? Bool == false)
            #expect(emulator.prices.postRead == 0.01 && emulator.prices.ownedRead == 0.001)
            let page = V2Resources(try v2HomePage(client))
            #expect(emulator.bill().totalMicros == page.allPosts.count * 10_000)
            #expect(emulator.bill().cycleStart == "2026-11-15")
        }
    }

    @Test func theControlListNamesTheBillingRoutes() throws {
        try withEmulator { emulator, _ in
            let routes = try TestClient(emulator: emulator, signer: nil).get("/_emulator").object["routes"] as? [String] ?? []
            for route in ["GET /_emulator/bill", "DELETE /_emulator/bill", "GET /_emulator/billing", "POST /_emulator/billing"] {
                #expect(routes.contains(route), "\(route)")
            }
        }
    }
}
