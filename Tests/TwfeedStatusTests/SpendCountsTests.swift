import Foundation
import Testing
import TwfeedBase
@testable import TwfeedBilling
@testable import TwfeedCore
@testable import TwfeedStatus

/// The ledger's summary in the snapshot: keyed by `BillingSource`, `BillableKind` and
/// `Feed` in code and by their names in the file, which `status` and other versions read.
struct SpendCountsTests {
    static let since = Date(timeIntervalSince1970: 1_800_000_000)

    static func encoded(_ value: some Encodable) throws -> JSONValue {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        return try JSONValue.parse(try encoder.encode(value))
    }

    static func decoded(_ text: String) throws -> SpendCounts {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try decoder.decode(SpendCounts.self, from: Data(text.utf8))
    }

    @Test func spendIsWrittenBySourceKindAndFeedName() throws {
        let counts = SpendCounts(
            todayMicros: 0, cycleMicros: 0, cycleStart: "2027-01-01", cycleEnd: "2027-02-01", budgetMicros: nil,
            bySourceMicros: [.home: 15_000, .settlement: 5_000], byKindResources: [.postCreateWithURL: 2, .userRead: 1],
            refusals: [.mentions: .init(reason: "not_permitted", detail: "client-not-enrolled", since: Self.since)],
            gaps: [.retweets: 3])
        let json = try Self.encoded(counts)
        #expect(json["bySourceMicros"] == .object(["home": .number("15000"), "settlement": .number("5000")]))
        #expect(json["byKindResources"] == .object(["post_create_url": .number("2"), "user_read": .number("1")]))
        #expect(json["refusals"]?["mentions"]?["reason"]?.string == "not_permitted")
        #expect(json["refusals"]?["mentions"]?["since"] == .number("1800000000"))
        #expect(json["gaps"] == .object(["retweets": .number("3")]))
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        #expect(try Self.decoded(String(decoding: try encoder.encode(counts), as: UTF8.self)) == counts)
    }

    /// Another version's source, kind or feed is left out; a map the file lacks (written
    /// before it existed) reads as empty; an unknown billing state reads as `ok`.
    @Test func spendFromAnotherVersionStillReads() throws {
        let counts = try Self.decoded(
            #"""
            {"todayMicros":1,"cycleMicros":2,"cycleStart":"2027-01-01","cycleEnd":"2027-02-01",
             "bySourceMicros":{"home":10,"bookmarks":99},"byKindResources":{"post_read":4,"dm_read":8},
             "state":"on_fire"}
            """#)
        #expect(counts.bySourceMicros == [.home: 10])
        #expect(counts.byKindResources == [.postRead: 4])
        #expect(counts.refusals.isEmpty)
        #expect(counts.gaps.isEmpty)
        #expect(counts.billingState == .ok)
        #expect(counts.refusal(of: .home) == nil)
        #expect(counts.moneyNote == "", "an older snapshot's amounts are real")
    }

    @Test func aRefusedFeedAndTheBillAsStatusJSONShowsThem() throws {
        var counts = try Self.decoded(
            #"""
            {"todayMicros":215000,"cycleMicros":12000000,"cycleStart":"2027-01-01","cycleEnd":"2027-02-01",
             "budgetMicros":20000000,"bySourceMicros":{},"byKindResources":{},"state":"out_of_credits","since":1800000000,
             "refusals":{"retweets":{"reason":"not_permitted","detail":"client-not-enrolled","since":1800000000}},
             "emulated":true}
            """#)
        #expect(counts.refusal(of: .retweets)?.detail == "client-not-enrolled")
        #expect(counts.refusal(of: .home) == nil)
        #expect(counts.moneyNote == " (the emulator's money, not real)")
        let json = counts.billingJSON
        #expect(json["state"]?.string == "out_of_credits")
        #expect(json["since"]?.string == Timestamp.iso8601(Self.since))
        #expect(json["until"] == .null)
        #expect(json["todayUSD"] == .number("0.215"))
        #expect(json["cycleSpentUSD"] == .number("12"))
        #expect(json["budgetUSD"] == .number("20"))
        counts.budgetMicros = nil
        #expect(counts.billingJSON["budgetUSD"] == .null)
    }
}
