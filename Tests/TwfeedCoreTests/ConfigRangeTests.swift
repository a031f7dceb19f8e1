import Foundation
import Testing
@testable import TwfeedCore

/// Every numeric key has a range (docs/INTERFACE.md, "Config ranges"); nothing traps.
struct ConfigRangeTests {
    struct Key: Sendable, CustomStringConvertible {
        let path: String
        let minimum: Double
        let maximum: Double
        let whole: Bool
        var description: String { path }

        func json(_ number: String) -> String {
            let parts = path.split(separator: ".").map(String.init)
            return parts.reversed().reduce(number) { inner, key in "{\"\(key)\": \(inner)}" }
        }
    }

    static let keys: [Key] = [
        Key(path: "api.timeoutSeconds", minimum: 1, maximum: 600, whole: false),
        Key(path: "api.budget.cycleStartDay", minimum: 1, maximum: 28, whole: true),
        Key(path: "api.creditsRecheckMinutes", minimum: 1, maximum: 1_440, whole: true),
        Key(path: "feeds.home.intervalSeconds", minimum: 15, maximum: 86_400, whole: false),
        Key(path: "feeds.retweets.intervalSeconds", minimum: 15, maximum: 86_400, whole: false),
        Key(path: "feeds.retweets.fullWalkHours", minimum: 1, maximum: 720, whole: true),
        Key(path: "images.maxCacheMB", minimum: 1, maximum: 1_048_576, whole: true),
        Key(path: "images.revalidateDays", minimum: 0, maximum: 3_650, whole: false),
        Key(path: "images.concurrency", minimum: 1, maximum: 16, whole: true),
        Key(path: "images.timeoutSeconds", minimum: 1, maximum: 600, whole: false),
        Key(path: "outbox.flushIntervalSeconds", minimum: 1, maximum: 86_400, whole: false),
        Key(path: "outbox.maxAgeHours", minimum: 0, maximum: 8_760, whole: false),
    ]

    func failure(_ text: String) -> TwfeedError? {
        do {
            _ = try ConfigLoader.parse(Data(text.utf8), path: "/etc/twfeed.json", environment: ["HOME": "/home/ada"])
            return nil
        } catch {
            return error as? TwfeedError
        }
    }

    @Test(arguments: keys)
    func theBoundsAreAcceptedAndBeyondThemIsExit78(_ key: Key) throws {
        #expect(failure(key.json(String(key.minimum))) == nil)
        #expect(failure(key.json(String(key.maximum))) == nil)
        for bad in [key.minimum - 1, key.maximum + 1] {
            let error = try #require(failure(key.json(String(bad))), "\(key.path) = \(bad) was accepted")
            #expect(error.code == .configuration)
            #expect(error.message.hasPrefix("/etc/twfeed.json: \(key.path): "))
            #expect(!error.message.contains("\n"))
        }
    }

    @Test(arguments: keys)
    func hugeNumbersAreRefusedNotTrappedOn(_ key: Key) throws {
        for huge in ["1e19", "-1e19", "1e400", "9223372036854775808"] {
            let error = try #require(failure(key.json(huge)), "\(key.path) = \(huge) was accepted")
            #expect(error.code == .configuration)
            #expect(error.message.contains(key.path))
        }
    }

    @Test(arguments: keys.filter(\.whole))
    func aFractionIsRefusedWhereAWholeNumberIsNeeded(_ key: Key) throws {
        let error = try #require(failure(key.json("2.5")))
        #expect(error.message == "/etc/twfeed.json: \(key.path): 2.5 must be a whole number")
    }

    @Test func fullWalkHoursDefaultsToAWeekAndBelongsToTheRetweetsFeedOnly() throws {
        let defaults = try ConfigLoader.parse(Data("{}".utf8), path: "/etc/twfeed.json", environment: ["HOME": "/home/ada"])
        #expect(defaults.feeds[.retweets]?.fullWalkHours == 168)
        let set = try ConfigLoader.parse(Data(#"{"feeds": {"retweets": {"fullWalkHours": 6}}}"#.utf8),
                                         path: "/etc/twfeed.json", environment: ["HOME": "/home/ada"])
        #expect(set.feeds[.retweets]?.fullWalkHours == 6)
        let error = try #require(failure(#"{"feeds": {"home": {"fullWalkHours": 6}}}"#))
        #expect(error.code == .configuration)
        #expect(error.message.hasPrefix("/etc/twfeed.json: feeds.home.fullWalkHours: unknown key"))
    }
}
