import Foundation
import Testing
@testable import TwfeedCore

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

    /// The daemon polls, schedules and bills `enabledFeeds`: with every feed turned on,
    /// still only the three timelines, never the archive's `posts` and `likes`.
    @Test func theArchivesFeedsAreNeverAmongThePolledOnes() throws {
        let config = try ConfigLoader.parse(
            Data(#"{"feeds": {"home": {"enabled": true}, "mentions": {"enabled": true}, "retweets": {"enabled": true}}}"#.utf8),
            path: "c.json", environment: ["HOME": "/"])
        #expect(config.enabledFeeds == [.home, .mentions, .retweets])
        #expect(Feed.allCases.filter(\.isPolled) == Feed.polled)
        #expect(Feed.archived.allSatisfy { !$0.isPolled })
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
        // The archive's feeds are imported, never polled: the config cannot turn them on.
        (#"{"feeds": {"posts": {"enabled": true}}}"#, "feeds.posts: unknown key"),
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

    /// A path below a file is missing too; a folder is there but is no config.
    @Test func aPathThatIsNoFileSaysWhy() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("twfeed-config-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "{}".write(toFile: "\(folder)/file", atomically: true, encoding: .utf8)
        #expect(throws: TwfeedError(.configuration, "\(folder)/file/config.json: config file not found")) {
            try ConfigLoader.load(explicit: "\(folder)/file/config.json", environment: environment)
        }
        #expect(throws: TwfeedError(.configuration, "\(folder): cannot read config file: Is a directory")) {
            try ConfigLoader.load(explicit: folder, environment: environment)
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

/// `http.listen` and `http.allowRemote`: the reader is loopback only unless asked.
struct HTTPConfigTests {
    func load(_ json: String) throws -> TwfeedConfig {
        try ConfigLoader.parse(Data(json.utf8), path: "/etc/twfeed/config.json", environment: ["HOME": "/home/u"])
    }

    func message(_ json: String) -> String? {
        do { _ = try load(json); return nil } catch let error as TwfeedError {
            #expect(error.code == .configuration)
            return error.message
        } catch { return "\(error)" }
    }

    @Test func theReaderIsOffByDefaultAndListensWhereTold() throws {
        #expect(try load("{}").http.listen == nil)
        #expect(try load(#"{"http":{"listen":null}}"#).http.listen == nil)
        #expect(try load(#"{"http":{"listen":"127.0.0.1:8765"}}"#).http.listen == ListenAddress(host: "127.0.0.1", port: 8765))
        #expect(try load(#"{"http":{"listen":"[::1]:9000"}}"#).http.listen == ListenAddress(host: "::1", port: 9000))
        #expect(try load(#"{"http":{"listen":"localhost:80"}}"#).http.listen?.isLoopback == true)
        #expect(try load(#"{"http":{"listen":"0.0.0.0:8765","allowRemote":true}}"#).http.listen?.isLoopback == false)
    }

    @Test func aNetworkAddressWithoutAllowRemoteIsRefused() {
        #expect(message(#"{"http":{"listen":"0.0.0.0:8765"}}"#)
            == #"/etc/twfeed/config.json: http.listen: "0.0.0.0:8765" is not a loopback address: the pages show your private timeline; set http.allowRemote to true to serve them to the network"#)
        #expect(message(#"{"http":{"listen":"[::]:8765","allowRemote":false}}"#)?.contains("is not a loopback address") == true)
        #expect(message(#"{"http":{"listen":"192.168.1.5:8765"}}"#)?.contains("is not a loopback address") == true)
    }

    @Test func aBadAddressNamesTheKeyAndTheValue() {
        #expect(message(#"{"http":{"listen":"8765"}}"#) == #"/etc/twfeed/config.json: http.listen: "8765" has no port (use HOST:PORT, e.g. 127.0.0.1:8765)"#)
        #expect(message(#"{"http":{"listen":"127.0.0.1:99999"}}"#) == #"/etc/twfeed/config.json: http.listen: "127.0.0.1:99999" has no valid port (0-65535)"#)
        #expect(message(#"{"http":{"listen":"example.com:80"}}"#)?.contains("must name an IP address or localhost") == true)
        #expect(message(#"{"http":{"listen":"::1:80"}}"#)?.contains("write an IPv6 address in brackets") == true)
        #expect(message(#"{"http":{"listen":8765}}"#) == "/etc/twfeed/config.json: http.listen: must be a string, not a number")
        #expect(message(#"{"http":{"allowRemote":"yes"}}"#) == "/etc/twfeed/config.json: http.allowRemote: must be true or false, not a string")
        #expect(message(#"{"http":{"port":1}}"#) == "/etc/twfeed/config.json: http.port: unknown key (allowed: listen, allowRemote, auth)")
    }
}
