import Foundation
import Testing
import TwfeedBilling
@testable import TwfeedCore

/// `api.ownsApp`, `api.prices`, `api.budget` and `api.creditsRecheckMinutes`: the
/// defaults are the published rates and no budget; a bad value is one line naming the
/// file, the key path and the value, exit 78.
struct ConfigBillingTests {
    func load(_ text: String) throws -> TwfeedConfig {
        try ConfigLoader.parse(Data(text.utf8), path: "/etc/twfeed.json", environment: ["HOME": "/home/ada"])
    }

    func failure(_ text: String) -> TwfeedError? {
        do {
            _ = try load(text)
            return nil
        } catch {
            return error as? TwfeedError
        }
    }

    @Test func theDefaultsArePublishedRatesNoBudgetAndOwnedApp() throws {
        let config = try load("{}")
        #expect(config.api.ownsApp)
        #expect(config.api.prices == .published)
        #expect(config.api.budget.monthlyUSD == nil)
        #expect(config.api.budget.cycleStartDay == 1)
        #expect(config.api.creditsRecheckMinutes == 15)
    }

    @Test func everyKeyIsRead() throws {
        let config = try load("""
            {"api": {"ownsApp": false, "prices": {"postRead": 0.006, "postCreateWithURL": 0.25},
                     "budget": {"monthlyUSD": 12.5, "cycleStartDay": 14}, "creditsRecheckMinutes": 5}}
            """)
        #expect(!config.api.ownsApp)
        #expect(config.api.prices.postRead == MicroUSD(micros: 6_000))
        #expect(config.api.prices.postCreateWithURL == MicroUSD(micros: 250_000))
        #expect(config.api.prices.ownedRead == Prices.published.ownedRead)
        #expect(config.api.budget.monthlyUSD == MicroUSD(micros: 12_500_000))
        #expect(config.api.budget.cycleStartDay == 14)
        #expect(config.api.budget.cycle.startDay == 14)
        #expect(config.api.creditsRecheckMinutes == 5)
    }

    @Test func aNullBudgetIsNoBudgetAndZeroIsAllowed() throws {
        #expect(try load(#"{"api": {"budget": {"monthlyUSD": null}}}"#).api.budget.monthlyUSD == nil)
        #expect(try load(#"{"api": {"budget": {"monthlyUSD": 0}}}"#).api.budget.monthlyUSD == .zero)
    }

    @Test(arguments: [
        (#"{"api": {"ownsApp": "yes"}}"#, "api.ownsApp"),
        (#"{"api": {"prices": {"postRaed": 0.005}}}"#, "api.prices.postRaed"),
        (#"{"api": {"prices": {"postRead": -0.005}}}"#, "api.prices.postRead"),
        (#"{"api": {"prices": {"postRead": 0.0000001}}}"#, "api.prices.postRead"),
        (#"{"api": {"prices": {"userRead": "0.01"}}}"#, "api.prices.userRead"),
        (#"{"api": {"prices": {"userRead": 1e400}}}"#, "api.prices.userRead"),
        (#"{"api": {"prices": 5}}"#, "api.prices"),
        (#"{"api": {"budget": {"monthlyUSD": -1}}}"#, "api.budget.monthlyUSD"),
        (#"{"api": {"budget": {"monthlyUSD": 1e19}}}"#, "api.budget.monthlyUSD"),
        (#"{"api": {"budget": {"monthly": 5}}}"#, "api.budget.monthly"),
        (#"{"api": {"budget": {"cycleStartDay": 29}}}"#, "api.budget.cycleStartDay"),
        (#"{"api": {"budget": {"cycleStartDay": 1.5}}}"#, "api.budget.cycleStartDay"),
        (#"{"api": {"creditsRecheckMinutes": 0}}"#, "api.creditsRecheckMinutes"),
    ])
    func aBadValueIsOneLineNamingTheKeyAndExit78(_ text: String, _ keyPath: String) throws {
        let error = try #require(failure(text), "\(text) was accepted")
        #expect(error.code == .configuration)
        #expect(error.message.hasPrefix("/etc/twfeed.json: \(keyPath): "), "\(error.message)")
        #expect(!error.message.contains("\n"))
    }

    @Test func theExampleConfigHoldsTheDefaults() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("config.example.json")
        let config = try ConfigLoader.parse(try Data(contentsOf: url), path: "config.example.json",
                                            environment: ["HOME": "/home/ada"])
        #expect(config.api.prices == .published)
        #expect(config.api.budget.monthlyUSD == nil)
    }
}
