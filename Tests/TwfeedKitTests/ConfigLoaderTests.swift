import Foundation
import Testing
@testable import TwfeedKit

struct ConfigLoaderTests {
    let environment = ["HOME": "/home/ada"]

    func parse(_ text: String) throws -> TwfeedConfig {
        try ConfigLoader.parse(Data(text.utf8), path: "/etc/twfeed.json", environment: environment)
    }

    func failure(_ text: String) -> TwfeedError? {
        do {
            _ = try parse(text)
            return nil
        } catch let error as TwfeedError {
            return error
        } catch {
            return nil
        }
    }

    @Test func emptyObjectGivesTheDocumentedDefaults() throws {
        let config = try parse("{}")
        #expect(config.api.dialect == .v2)
        #expect(config.api.resolvedBaseURL == "https://api.x.com")
        #expect(config.api.timeoutSeconds == 30)
        #expect(config.feeds[.home]?.intervalSeconds == 120)
        #expect(config.feeds[.retweets]?.intervalSeconds == 600)
        #expect(config.credentials == "/home/ada/.config/twfeed/credentials.json")
        #expect(config.storage.database == "/home/ada/.local/share/twfeed/twfeed.sqlite")
        #expect(config.storage.imageCache == "/home/ada/.cache/twfeed/images")
        #expect(config.outbox.maxAgeHours == 24)
        #expect(config.log.format == .logfmt)
    }

    @Test func theExampleFileParsesToTheDefaults() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let data = try Data(contentsOf: root.appendingPathComponent("config.example.json"))
        let example = try ConfigLoader.parse(data, path: "config.example.json", environment: environment)
        var defaults = try parse("{}")
        defaults.sourcePath = nil
        defaults.api.baseURL = "https://api.x.com"
        #expect(example == defaults)
    }

    @Test func legacyDialectDefaultsToTheOldHost() throws {
        let config = try parse(#"{"api": {"dialect": "v1.1"}}"#)
        #expect(config.api.resolvedBaseURL == "https://api.twitter.com")
    }

    @Test func systemdDirectoriesMoveTheDefaults() throws {
        let config = try ConfigLoader.parse(Data("{}".utf8), path: "c.json", environment: [
            "HOME": "/", "STATE_DIRECTORY": "/var/lib/twfeed", "CACHE_DIRECTORY": "/var/cache/twfeed",
            "CREDENTIALS_DIRECTORY": "/run/credentials/twfeed.service",
        ])
        #expect(config.storage.database == "/var/lib/twfeed/twfeed.sqlite")
        #expect(config.storage.imageCache == "/var/cache/twfeed/images")
        #expect(config.credentials == "/run/credentials/twfeed.service/credentials.json")
    }

    @Test(arguments: [
        (#"{"feeds": {"home": {"intervalSecs": 60}}}"#, "feeds.home.intervalSecs: unknown key"),
        (#"{"colour": 1}"#, "colour: unknown key"),
        (#"{"feeds": {"home": {"intervalSeconds": 5}}}"#, "feeds.home.intervalSeconds: 5 is out of range: must be between 15 and 86400"),
        (#"{"feeds": {"home": {"intervalSeconds": "60"}}}"#, "feeds.home.intervalSeconds: must be a number, not a string"),
        (#"{"feeds": {"home": {"enabled": "yes"}}}"#, "feeds.home.enabled: must be true or false, not a string"),
        (#"{"api": {"dialect": "v3"}}"#, "api.dialect: unknown dialect \"v3\""),
        (#"{"api": {"baseURL": "ftp://x"}}"#, "api.baseURL: \"ftp://x\" is not an http(s) URL"),
        (#"{"api": {"baseURL": "https://api.x.com/2"}}"#, "must have no path"),
        (#"{"api": []}"#, "api: must be an object, not an array"),
        (#"{"log": {"level": "loud"}}"#, "log.level: unknown level \"loud\""),
        (#"{"images": {"allowedHosts": ["a", 3]}}"#, "images.allowedHosts[1]: must be a string, not a number"),
        ("{\n  \"api\": {\n    \"dialect\": \"v2\",,\n  }\n}", "invalid JSON at line 3, column 21"),
        ("{\"api\": ", "invalid JSON at line 1, column 9: unexpected end of input"),
        ("[1]", "must be an object, not an array"),
    ])
    func badConfigNamesTheCulprit(text: String, expected: String) throws {
        let error = try #require(failure(text))
        #expect(error.code == .configuration)
        #expect(error.code.exitCode == 78)
        #expect(error.message.hasPrefix("/etc/twfeed.json: "))
        #expect(error.message.contains(expected), "\(error.message)")
        #expect(!error.message.contains("\n"))
    }

    @Test func explicitPathMustExist() {
        #expect(throws: TwfeedError(.configuration, "/nonexistent/config.json: config file not found")) {
            try ConfigLoader.load(explicit: "/nonexistent/config.json", environment: environment)
        }
    }

    @Test func missingDefaultFileMeansDefaults() throws {
        let config = try ConfigLoader.load(explicit: nil, environment: ["HOME": "/nonexistent-home"])
        #expect(config.api.dialect == .v2)
        #expect(config.sourcePath == nil)
    }

    @Test func lookupOrder() {
        #expect(ConfigLoader.locate(explicit: "~/c.json", environment: ["HOME": "/h", "TWFEED_CONFIG": "/e.json"]).path == "/h/c.json")
        #expect(ConfigLoader.locate(explicit: nil, environment: ["HOME": "/h", "TWFEED_CONFIG": "/e.json"]).path == "/e.json")
        #expect(ConfigLoader.locate(explicit: nil, environment: ["HOME": "/h", "CONFIGURATION_DIRECTORY": "/etc/tw"]).path == "/etc/tw/config.json")
        #expect(ConfigLoader.locate(explicit: nil, environment: ["HOME": "/h"]) == ("/h/.config/twfeed/config.json", false))
    }
}
