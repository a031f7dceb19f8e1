import Foundation
import Testing
import TwfeedTesting
import TwfeedEmulator
@testable import TwfeedKit

/// The real `twfeed` binary, as a user or systemd runs it.
@Suite(.serialized, .tags(.integration))
struct ProcessTests {
    @Test(arguments: [
        (#"{"feeds": {"home": {"intervalSeconds": 5}}}"#, "feeds.home.intervalSeconds: 5 is out of range: must be between 15 and 86400"),
        (#"{"feeds": {"home": {"every": 60}}}"#, "feeds.home.every: unknown key"),
        (#"{"api": {"dialect": "v3"}}"#, "api.dialect: unknown dialect \"v3\""),
        (#"{"api": {"timeoutSeconds": "30"}}"#, "api.timeoutSeconds: must be a number, not a string"),
        ("{\n\"api\": {\n}}}\n", "invalid JSON at line 3, column 3"),
    ])
    func aBadConfigPrintsOneLineAndExits78(config: String, expected: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("twfeed-cfg-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = "\(folder)/config.json"
        try config.write(toFile: path, atomically: true, encoding: .utf8)
        for command in [["run"], ["feed", "home"], ["status"]] {
            let result = try Binary.run(command + ["--config", path])
            #expect(result.status == 78, "\(command): \(result.stderr)")
            #expect(result.stderr == "twfeed: \(path): \(expected)\n" || result.stderr.hasPrefix("twfeed: \(path): \(expected)"), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1)
        }
    }

    @Test func aMissingConfigFileNamedOnTheCommandLineIs78() async throws {
        let result = try Binary.run(["feed", "home", "--config", "/nonexistent/twfeed.json"])
        #expect(result.status == 78)
        #expect(result.stderr == "twfeed: /nonexistent/twfeed.json: config file not found\n")
    }

    @Test func aCredentialsFileOthersCanReadIsRefusedWith77() async throws {
        let world = try TestWorld(tweets: 1)
        chmod(world.credentialsPath, 0o644)
        let result = try Binary.run(["run", "--config", world.configPath])
        #expect(result.status == 77)
        #expect(result.stderr.contains("\(world.credentialsPath): credentials file is readable by others (mode 644)"))
        #expect(!result.stderr.contains(world.emulator.configuration.credentials.consumerSecret))
    }

    @Test func usageErrorsExit64() async throws {
        #expect(try Binary.run(["feed", "sideways"]).status == 64)
        #expect(try Binary.run(["feed", "home", "--limit", "0"]).status == 64)
        let badBefore = try Binary.run(["feed", "home", "--before", "12abc"])
        #expect(badBefore.status == 64)
        #expect(badBefore.stderr.contains("--before: 12abc is not a tweet id"))
        #expect(try Binary.run(["frobnicate"]).status == 64)
    }

    @Test func sigtermFinishesAndExitsZeroWithinTwoSeconds() async throws {
        let world = try TestWorld(tweets: 300)
        let process = try Binary.start(["run", "--config", world.configPath], logFile: "\(world.folder)/run.log")
        let database = try AppDatabase.open(path: world.databasePath)
        #expect(try await eventually { try await database.syncState(.home).lastSuccessAt != nil })
        let sent = Date()
        process.terminate()
        process.waitUntilExit()
        #expect(Date().timeIntervalSince(sent) < 2)
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
        let log = try String(contentsOfFile: "\(world.folder)/run.log", encoding: .utf8)
        #expect(log.contains("event=daemon.start"))
        #expect(log.contains("event=poll.done"))
        #expect(log.contains("event=daemon.stop"))
        #expect(!log.contains(world.emulator.configuration.credentials.consumerSecret))
        #expect(!log.contains(world.emulator.configuration.credentials.accessTokenSecret))
    }

    @Test func aSIGKILLMidRangeIsCompletedByTheNextRunWithNothingLostOrDuplicated() async throws {
        let world = try TestWorld(tweets: 1000)
        // Slow pages, so the kill lands in the middle of the home range.
        world.emulator.inject(.slow(seconds: 0.4), times: 10, pathContains: "reverse_chronological")
        let database = try AppDatabase.open(path: world.databasePath)
        let first = try Binary.start(["run", "--config", world.configPath], logFile: "\(world.folder)/run1.log")
        #expect(try await eventually { try await database.memberIDs(.home).count >= 200 })
        kill(first.processIdentifier, SIGKILL)
        first.waitUntilExit()
        #expect(first.terminationReason == .uncaughtSignal)
        let interrupted = try await database.syncState(.home)
        let storedAtKill = try await database.memberIDs(.home).count
        #expect(storedAtKill < 1000)
        #expect(interrupted.newestID == nil)
        #expect(interrupted.pendingBottom != nil)

        world.emulator.clearFaults()
        let second = try Binary.start(["run", "--config", world.configPath], logFile: "\(world.folder)/run2.log")
        defer { second.terminate(); second.waitUntilExit() }
        let truth = world.emulator.groundTruth(.home, dialect: .v2)
        #expect(try await eventually { try await database.syncState(.home).newestID != nil })
        #expect(try await database.memberIDs(.home).map(\.description) == truth)
        let (rows, distinct) = try database.inspect { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM feedMembership WHERE feed = 'home'")!,
             try Int.fetchOne(db, sql: "SELECT count(DISTINCT tweetId) FROM feedMembership WHERE feed = 'home'")!)
        }
        #expect(rows == distinct)
        let check = try database.inspect { try String.fetchOne($0, sql: "PRAGMA integrity_check") }
        #expect(check == "ok")
    }

    @Test func feedReadsTheCacheOfflineAsJSON() async throws {
        let world = try TestWorld(tweets: 50)
        let daemon = try world.daemon()
        for syncer in daemon.syncers { try await syncer.poll() }
        world.emulator.stop()  // offline from here on
        let result = try Binary.run(["feed", "home", "--limit", "5", "--json", "--config", world.configPath])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 5)
        let ids = try lines.map { line -> String in
            let object = try JSONValue.parse(String(line))
            for key in ["id", "createdAt", "text", "feeds", "author", "inReplyToId", "retweetOfId", "quotedId"] {
                #expect(object[key] != nil, "missing \(key)")
            }
            for key in ["id", "username", "name", "avatarPath"] {
                #expect(object["author"]?[key] != nil, "missing author.\(key)")
            }
            #expect(object["feeds"]?.array?.contains(.string("home")) == true)
            return try #require(object["id"]?.string)
        }
        #expect(ids == Array(world.emulator.groundTruth(.home, dialect: .v2).prefix(5)))
        // --before pages back from the last id shown, with no gap and no repeat.
        let next = try Binary.run(["feed", "home", "--limit", "3", "--before", ids[4], "--json", "--config", world.configPath])
        #expect(next.status == 0, "\(next.stderr)")
        let nextIDs = try next.stdout.split(separator: "\n").map { try JSONValue.parse(String($0))["id"]?.string }
        #expect(nextIDs == Array(world.emulator.groundTruth(.home, dialect: .v2).dropFirst(5).prefix(3)))
        let human = try Binary.run(["feed", "mentions", "--limit", "2", "--config", world.configPath])
        #expect(human.status == 0)
        #expect(human.stdout.contains("@"))
    }
}

import GRDB
@testable import TwfeedCore
@testable import TwfeedStore
