import Foundation
import Testing
import TwfeedTesting
@testable import TwfeedCore
@testable import TwfeedStatus

/// A pid is only the daemon's when it is proven so; a reused pid is never signalled.
final class ProcessLivenessTests {
    /// Each test's folder, removed after the test.
    let scratch: TemporaryFolder

    init() throws { scratch = try TemporaryFolder("twfeed-live") }

    func folder() throws -> String { scratch.path }

    @Test(arguments: [Int32(1), getppid()])
    func aStaleSnapshotNamingALiveUnrelatedProcessIsNotRunning(_ pid: Int32) throws {
        // The daemon that wrote this snapshot crashed; its pid now belongs to someone else.
        var snapshot = StatusSnapshot(pid: pid, startedAt: Date(), heartbeatAt: Date(), dialect: "v2")
        snapshot.processStartTicks = 12_345  // the dead daemon's start time
        #expect(ProcessLiveness.isAlive(pid))  // the pid exists...
        #expect(!snapshot.processAlive)  // ...but it is not the daemon
        // An older snapshot without a start time, and no lock held: not trusted either.
        snapshot.processStartTicks = nil
        #expect(!snapshot.processAlive)
    }

    @Test func theDaemonItselfIsConfirmedByItsStartTime() throws {
        var snapshot = StatusSnapshot(pid: getpid(), startedAt: Date(), heartbeatAt: Date(), dialect: "v2")
        snapshot.processStartTicks = ProcessLiveness.startTicks(of: getpid())
        #expect(snapshot.processStartTicks != nil)
        #expect(snapshot.processAlive)
    }

    @Test func theLockIsExclusiveNamesItsHolderAndIsFreedWithIt() async throws {
        let database = try folder() + "/twfeed.sqlite"
        #expect(DatabaseLock.holder(database: database) == nil)
        var lock: DatabaseLock? = try DatabaseLock.acquire(database: database)
        #expect(DatabaseLock.holder(database: database) == getpid())
        let error = try #require(throws: TwfeedError.self) { try DatabaseLock.acquire(database: database) }
        #expect(error.code.exitCode == 75)
        #expect(error.message == "\(database): already in use by twfeed (pid \(getpid()))")
        var info = stat()
        stat(DatabaseLock.path(forDatabase: database), &info)
        #expect(info.st_mode & 0o777 == 0o600)
        // A snapshot of a daemon without a start time is confirmed by the lock.
        var snapshot = StatusSnapshot(pid: getpid(), startedAt: Date(), heartbeatAt: Date(), dialect: "v2")
        snapshot.counts = .init(at: Date(), feeds: [:], outbox: [:], oldestPendingAt: nil, imageFiles: 0, imageBytes: 0,
                                 databasePath: database, databaseBytes: 0)
        #expect(snapshot.processAlive)
        _ = lock
        lock = nil
        // Freed with its descriptor. A child that another test spawns at this moment holds a
        // copy of every descriptor until it execs (close-on-exec), and the lock with it: the
        // release is awaited, not read at once.
        #expect(await eventually { DatabaseLock.holder(database: database) == nil })
        #expect(!snapshot.processAlive)
        _ = try DatabaseLock.acquire(database: database)
    }
}
