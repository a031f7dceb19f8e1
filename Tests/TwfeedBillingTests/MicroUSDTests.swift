import Foundation
import Testing
import TwfeedBilling

@Suite("MicroUSD")
struct MicroUSDTests {
    @Test("a thousand post reads at $0.005 are exactly $5, where Double drifts")
    func sumsAreExact() {
        var total = MicroUSD.zero
        var drifting = 0.0
        for _ in 0..<1000 {
            total += usd("0.005")
            drifting += 0.005
        }
        #expect(total == usd("5"))
        #expect(total.micros == 5_000_000)
        #expect(drifting != 5.0)  // why the type exists
        #expect(usd("0.005") * 1000 == total)
        #expect(3 * usd("0.200") == usd("0.6"))
        #expect(usd("1") - usd("0.295") == usd("0.705"))
    }

    @Test("comparisons order amounts; subtraction may go below zero and clamps back")
    func comparisons() {
        #expect(usd("0.005") < usd("0.01"))
        #expect(usd("0.2") > usd("0.199999"))
        let over = usd("1") - usd("1.5")
        #expect(over.isNegative)
        #expect(over == MicroUSD(micros: -500_000))
        #expect(over.clampedToZero == .zero)
        #expect(usd("2").clampedToZero == usd("2"))
    }

    @Test("arithmetic saturates instead of crashing the daemon")
    func saturation() {
        let max = MicroUSD(micros: .max)
        #expect(max + usd("0.000001") == max)
        #expect(MicroUSD(micros: .min) - usd("1") == MicroUSD(micros: .min))
        #expect(usd("0.2") * Int.max == max)
        #expect(usd("0.2") * Int.min == MicroUSD(micros: .min))
        #expect(max - MicroUSD(micros: -1) == max)
    }

    @Test("usd is the six-decimal value JSON should show",
          arguments: [("0.295", "0.295"), ("0.000001", "1e-06"), ("10.99", "10.99"), ("0", "0.0"),
                      ("123456.789012", "123456.789012")])
    func usdDouble(literal: String, expected: String) throws {
        #expect(usd(literal).usd.description == expected)
        let data = try JSONSerialization.data(withJSONObject: ["usd": usd(literal).usd])
        let back = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(try MicroUSD(parsingJSON: back["usd"] as Any) == usd(literal))
    }

    @Test("decimal literals are read exactly",
          arguments: [("0.005", 5_000), ("12", 12_000_000), ("0.000001", 1), ("2e-3", 2_000),
                      ("1.5E+2", 150_000_000), ("0.0050000", 5_000), (" 0.2 ", 200_000), ("-0", 0),
                      ("1000000000", 1_000_000_000_000_000), ("0.123456000000000000000e0", 123_456),
                      ("1000000e-12", 1)])
    func parsesStrings(text: String, micros: Int64) throws {
        #expect(try MicroUSD(parsing: text) == MicroUSD(micros: micros))
    }

    @Test("refused literals say why",
          arguments: [("-0.005", MicroUSD.ParseError.negative), ("0.0000001", .tooPrecise),
                      ("0.0000004", .tooPrecise), ("1e-7", .tooPrecise),
                      ("0.12345600000000000000001", .tooPrecise), ("1e-100000000000", .tooPrecise), ("NaN", .notFinite),
                      ("inf", .notFinite), ("1000000000.000001", .tooLarge), ("1e10", .tooLarge),
                      ("1e100000000000", .tooLarge), ("", .notANumber), ("$5", .notANumber),
                      ("0.", .notANumber), (".5", .notANumber), ("1,5", .notANumber), ("5 USD", .notANumber),
                      ("1e", .notANumber), ("--1", .notANumber)])
    func refusesStrings(text: String, error: MicroUSD.ParseError) {
        #expect(throws: error) { try MicroUSD(parsing: text) }
    }

    @Test("a Double's binary noise is tolerated, a seventh decimal is not")
    func parsesDoubles() throws {
        #expect(try MicroUSD(parsing: 0.005) == usd("0.005"))
        #expect(try MicroUSD(parsing: 0.1 + 0.2) == usd("0.3"))
        #expect(try MicroUSD(parsing: 999_999_999.999999) == usd("999999999.999999"))
        #expect(throws: MicroUSD.ParseError.tooPrecise) { try MicroUSD(parsing: 0.0000004) }
        #expect(throws: MicroUSD.ParseError.tooPrecise) { try MicroUSD(parsing: 0.1234565) }
        #expect(throws: MicroUSD.ParseError.negative) { try MicroUSD(parsing: -0.01) }
        #expect(throws: MicroUSD.ParseError.notFinite) { try MicroUSD(parsing: Double.nan) }
        #expect(throws: MicroUSD.ParseError.notFinite) { try MicroUSD(parsing: -Double.infinity) }
        #expect(throws: MicroUSD.ParseError.tooLarge) { try MicroUSD(parsing: 1e12) }
        #expect(try MicroUSD(parsing: 7) == usd("7"))
        #expect(throws: MicroUSD.ParseError.negative) { try MicroUSD(parsing: -1) }
    }

    @Test("what JSONSerialization gives for a config value is read; true is not a price")
    func parsesJSONValues() throws {
        let json = #"{"a":0.005,"b":10,"c":"0.2","d":true,"e":null,"f":[1],"g":-3,"i":12345678901234567890,"j":1.0}"#
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(try MicroUSD(parsingJSON: object["a"] as Any) == usd("0.005"))
        #expect(try MicroUSD(parsingJSON: object["b"] as Any) == usd("10"))
        #expect(try MicroUSD(parsingJSON: object["c"] as Any) == usd("0.2"))
        #expect(try MicroUSD(parsingJSON: object["j"] as Any) == usd("1"))
        #expect(throws: MicroUSD.ParseError.wrongType) { try MicroUSD(parsingJSON: object["d"] as Any) }
        #expect(throws: MicroUSD.ParseError.wrongType) { try MicroUSD(parsingJSON: object["e"] as Any) }
        #expect(throws: MicroUSD.ParseError.wrongType) { try MicroUSD(parsingJSON: object["f"] as Any) }
        #expect(throws: MicroUSD.ParseError.negative) { try MicroUSD(parsingJSON: object["g"] as Any) }
        #expect(throws: MicroUSD.ParseError.tooLarge) { try MicroUSD(parsingJSON: object["i"] as Any) }
        #expect(throws: MicroUSD.ParseError.wrongType) { try MicroUSD(parsingJSON: true) }
        #expect(try MicroUSD(parsingJSON: 3) == usd("3"))
        #expect(try MicroUSD(parsingJSON: 0.25) == usd("0.25"))
    }

    @Test("the messages complete a config error line")
    func messages() {
        #expect(MicroUSD.ParseError.negative.description == "must not be negative")
        #expect(MicroUSD.ParseError.tooPrecise.description.contains("6 decimals"))
    }

    @Test("for people: exact, at least 2 decimals from $1, at least 3 below",
          arguments: [(0, "$0.000"), (295_000, "$0.295"), (5_000, "$0.005"), (200_000, "$0.200"),
                      (1, "$0.000001"), (1_234, "$0.001234"), (999_999, "$0.999999"),
                      (1_000_000, "$1.00"), (10_990_000, "$10.99"), (12_345_000, "$12.345"),
                      (1_234_567_891, "$1234.567891"), (1_500_000, "$1.50"), (-5_000, "-$0.005"),
                      (-10_990_000, "-$10.99"), (Int64.min, "-$9223372036854.775808")])
    func formatted(micros: Int64, expected: String) {
        #expect(MicroUSD(micros: micros).formatted == expected)
        #expect("\(MicroUSD(micros: micros))" == expected)
    }

    @Test("for logs: the plain exact number",
          arguments: [(0, "0"), (295_000, "0.295"), (1, "0.000001"), (12_000_000, "12"), (-1_500_000, "-1.5")])
    func decimalString(micros: Int64, expected: String) throws {
        #expect(MicroUSD(micros: micros).decimalString == expected)
        if micros >= 0 { #expect(try MicroUSD(parsing: expected) == MicroUSD(micros: micros)) }
    }

    @Test("a table's amounts: the decimals asked for, more only when the amount needs them",
          arguments: [(5_000, 3, "$0.005"), (5_000, 6, "$0.005000"), (15, 3, "$0.000015"), (10_990_000, 3, "$10.990"),
                      (1_500, 4, "$0.0015"), (0, 3, "$0.000"), (-5_000, 4, "-$0.0050")])
    func formattedWithDecimals(micros: Int64, decimals: Int, expected: String) {
        #expect(MicroUSD(micros: micros).formatted(decimals: decimals) == expected)
    }

    @Test("an estimate rounded to a table's decimals, down for an allowance",
          arguments: [(769_230, FloatingPointRoundingRule.down, "$0.769"), (769_730, .down, "$0.769"),
                      (769_730, .toNearestOrAwayFromZero, "$0.770"), (769_230, .up, "$0.770"), (769_000, .up, "$0.769"),
                      (-769_230, .down, "-$0.770"), (-769_730, .toNearestOrAwayFromZero, "-$0.770")])
    func formattedRounding(micros: Int64, rule: FloatingPointRoundingRule, expected: String) {
        #expect(MicroUSD(micros: micros).formatted(decimals: 3, rounding: rule) == expected)
    }
}
