import Foundation
import Testing
import TwfeedTesting
import TwfeedEmulator
@testable import TwfeedKit
@testable import TwfeedCore
@testable import TwfeedStore

/// One daemon per database: a second `twfeed run` is refused, the first goes on.
@Suite(.serialized, .tags(.integration))
struct OneDaemonTests {
    @Test func aSecondRunOnTheSameDatabaseExits75NamingTheFirstsPid() async throws {
        let world = try TestWorld(tweets: 20)
        let first = try Binary.start(["run", "--config", world.configPath], logFile: "\(world.folder)/run1.log")
        defer { first.terminate(); first.waitUntilExit() }
        let database = try AppDatabase.open(path: world.databasePath)
        #expect(try await eventually { try await database.syncState(.home).lastSuccessAt != nil })

        let second = try Binary.run(["run", "--config", world.configPath])
        #expect(second.status == 75, "\(second.stderr)")
        #expect(second.stderr == "twfeed: \(world.databasePath): already in use by twfeed (pid \(first.processIdentifier))\n")
        // The first is untouched: still running, still the one the snapshot names.
        #expect(first.isRunning)
        #expect(DatabaseLock.holder(database: world.databasePath) == first.processIdentifier)
        let status = try Binary.run(["status", "--json", "--config", world.configPath])
        let report = try JSONValue.parse(status.stdout)
        #expect(report["daemon"]?["running"] == .bool(true))
        #expect(report["daemon"]?["pid"] == .number(String(first.processIdentifier)))

        // Once the first has stopped, the lock is free again.
        first.terminate()
        first.waitUntilExit()
        #expect(DatabaseLock.holder(database: world.databasePath) == nil)
    }
}
