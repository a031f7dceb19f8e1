import Foundation
import Testing
import TwfeedBilling

@Suite("Prices")
struct PricesTests {
    @Test("the defaults are the published pay-per-use rates")
    func publishedRates() {
        let prices = Prices.published
        #expect(prices.price(of: .postRead) == usd("0.005"))
        #expect(prices.price(of: .ownedRead) == usd("0.001"))
        #expect(prices.price(of: .userRead) == usd("0.010"))
        #expect(prices.price(of: .postCreate) == usd("0.015"))
        #expect(prices.price(of: .postCreateWithURL) == usd("0.200"))
        #expect(prices.price(of: .postCreateSummoned) == usd("0.010"))
        #expect(prices.price(of: .postDelete) == usd("0.010"))
        #expect(prices.price(of: .mediaUpload) == .zero, "unpublished: counted, not priced")
        #expect(Prices() == .published)
    }

    @Test("kinds keep the names metrics and JSON use, and the config's price names")
    func names() {
        #expect(BillableKind.allCases.map(\.rawValue) == [
            "post_read", "owned_read", "user_read", "post_create", "post_create_url", "post_create_summoned", "post_delete",
            "media_upload",
        ])
        #expect(BillableKind.allCases.map(\.configName) == [
            "postRead", "ownedRead", "userRead", "postCreate", "postCreateWithURL", "postCreateSummoned", "postDelete",
            "mediaUpload",
        ])
        #expect(BillableKind.allCases.filter(\.isRead) == [.postRead, .ownedRead, .userRead])
    }

    @Test("api.prices overrides what it names and keeps the rest")
    func overriding() throws {
        let config = #"{"postRead": 0.004, "postCreateWithURL": "0.25", "userRead": 0, "postDelete": 0.02}"#
        let object = try #require(try JSONSerialization.jsonObject(with: Data(config.utf8)) as? [String: Any])
        let prices = try Prices.overriding(object)
        #expect(prices.postRead == usd("0.004"))
        #expect(prices.postCreateWithURL == usd("0.25"))
        #expect(prices.userRead == .zero)
        #expect(prices.postDelete == usd("0.02"))
        #expect(prices.ownedRead == usd("0.001"))
        #expect(prices.postCreate == usd("0.015"))
        #expect(try Prices.overriding([:]) == .published)
    }

    @Test("a misspelt or bad price is refused with its key")
    func refusals() {
        #expect(throws: Prices.InvalidPrice(key: "postCreateWithUrl", problem: nil)) {
            try Prices.overriding(["postCreateWithUrl": 0.1])
        }
        #expect(throws: Prices.InvalidPrice(key: "postRead", problem: .negative)) {
            try Prices.overriding(["postRead": -0.005])
        }
        #expect(throws: Prices.InvalidPrice(key: "ownedRead", problem: .tooPrecise)) {
            try Prices.overriding(["ownedRead": "0.0001234"])
        }
        let error = Prices.InvalidPrice(key: "postRead", problem: .negative)
        #expect(error.description == "postRead: must not be negative")
        #expect(Prices.InvalidPrice(key: "postRaed", problem: nil).description == "postRaed: unknown key")
    }

    @Test("the subscript and the properties are the same prices")
    func subscriptSetsTheProperty() {
        var prices = Prices.published
        prices[.ownedRead] = usd("0.002")
        #expect(prices.ownedRead == usd("0.002"))
        #expect(prices.price(of: .ownedRead) == usd("0.002"))
        #expect(prices.postRead == usd("0.005"))
    }
}
