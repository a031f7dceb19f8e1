import Testing
import TwfeedBilling

@Suite("PostPricing")
struct PostPricingTests {
    @Test("a plain status is a $0.015 post")
    func plain() {
        let pricing = PostPricing(text: "Good morning, everyone.", summoned: false)
        #expect(pricing.kind == .postCreate)
        #expect(pricing.price == usd("0.015"))
        #expect(!pricing.hasURL)
    }

    @Test("a summoned reply is a $0.010 post")
    func summoned() {
        let pricing = PostPricing(text: "@alice thanks!", summoned: true)
        #expect(pricing.kind == .postCreateSummoned)
        #expect(pricing.price == usd("0.010"))
    }

    @Test("anything twitter-text links makes it a $0.200 post, summoned or not",
          arguments: ["see https://example.com/a?b=c", "http://t.co/abc", "example.com", "read example.com.",
                      "(www.example.org)", "docs at swift.org/documentation now", "日本語 example.jp 日本語",
                      "👍🏽example.com", "EXAMPLE.COM", "https://例え.jp"])
    func withURL(text: String) {
        for summoned in [false, true] {
            let pricing = PostPricing(text: text, summoned: summoned)
            #expect(pricing.hasURL, "\(text)")
            #expect(pricing.kind == .postCreateWithURL)
            #expect(pricing.price == usd("0.200"))
        }
    }

    @Test("text twitter-text does not link stays cheap",
          arguments: ["pi is 3.14159", "e.g. this", "file.notatld", "user@example", "version 6.3.1",
                      "#example", "@example", "a..b", "no dots at all", "", "mail me@example.com"])
    func withoutURL(text: String) {
        let pricing = PostPricing(text: text, summoned: false)
        #expect(!pricing.hasURL, "\(text)")
        #expect(pricing.kind == .postCreate)
    }

    @Test("the count matches the URLs twitter-text weighs as 23 each")
    func urlCount() {
        #expect(PostPricing.urlCount(in: "a.com b.org https://c.net/x") == 3)
        #expect(PostPricing.urlCount(in: "nothing here") == 0)
    }

    @Test("configured prices are used")
    func configured() {
        var prices = Prices.published
        prices.postCreateWithURL = usd("0.3")
        prices.postCreate = usd("0.02")
        #expect(PostPricing(text: "x.com", summoned: false, prices: prices).price == usd("0.3"))
        #expect(PostPricing(text: "x", summoned: false, prices: prices).price == usd("0.02"))
    }
}
