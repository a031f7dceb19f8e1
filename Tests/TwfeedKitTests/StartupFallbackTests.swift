import Foundation
import Synchronization
import Testing
import TwfeedTesting
@testable import TwfeedKit
@testable import TwfeedCore
@testable import TwfeedStore

/// What must not stop the daemon from starting, or race when two processes start.
final class StartupFallbackTests {
    /// Each test's folders, under one scratch folder removed after the test.
    let scratch: ScratchFolder

    init() throws { scratch = try ScratchFolder(prefix: "twfeed-start") }

    func folder(_ name: String = "") throws -> String {
        let folder = scratch.path + "/\(UUID().uuidString.prefix(8))\(name)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test(.timeLimit(.minutes(2)))
    func aDatabasePathTooLongForASocketStillGetsAWakeSocket() async throws {
        let deep = try folder("/" + String(repeating: "d", count: 120))
        var config = TwfeedConfig(environment: ["HOME": deep])
        config.storage.database = deep + "/twfeed.sqlite"
        let path = WakeSocket.path(config: config, environment: [:])
        #expect(path.utf8.count <= 107)
        #expect(path == WakeSocket.path(config: config, environment: [:]))  // post finds the same one
        let doorbell = Doorbell()
        let socket = try WakeSocket(listeningAt: path, doorbell: doorbell)
        defer { socket.close() }
        #expect(WakeSocket.send(to: path))
        // A clock that never moves: only the datagram's ring can end this wait.
        let clock = ManualClock()
        await doorbell.wait(until: clock.now().addingTimeInterval(3600), clock: clock)
    }

    @Test(.timeLimit(.minutes(2)))
    func migrationsWaitForAnotherProcesssMigrations() async throws {
        let database = try folder() + "/twfeed.sqlite"
        let order = Mutex<[String]>([])
        let held = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        // Another process's migration, holding the lock (an OFD lock: its own open
        // file, so it excludes this process's opener just as another process's would).
        let holder = Thread {
            _ = try? DatabaseLock.withMigrationLock(database: database) {
                held.signal()
                release.wait()
                order.withLock { $0.append("other migration done") }
            }
        }
        holder.start()
        held.wait()
        // On its own thread, so a busy test pool cannot delay it.
        let opened = DispatchSemaphore(value: 0)
        let opener = Thread {
            _ = try? AppDatabase.open(path: database)
            order.withLock { $0.append("opened") }
            opened.signal()
        }
        opener.start()
        // The kernel lists a waiter blocked on the lock ("->" in /proc/locks) once the
        // opener is waiting for it; before that, nothing may have been opened.
        var inode = stat()
        stat(DatabaseLock.path(forDatabase: database), &inode)
        var waiting = false
        while !waiting && order.withLock({ $0.isEmpty }) {
            let locks = (try? String(contentsOfFile: "/proc/locks", encoding: .utf8)) ?? ""
            waiting = locks.split(separator: "\n").contains { $0.contains("->") && $0.contains(":\(inode.st_ino) ") }
            await Task.yield()
        }
        #expect(waiting, "the opener never waited for the migration lock")
        #expect(order.withLock { $0 }.isEmpty)
        release.signal()
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { opened.wait(); continuation.resume() }
        }
        #expect(order.withLock { $0 } == ["other migration done", "opened"])
    }
}
