import Foundation
import GRDB
import Testing
@testable import TwfeedStore

/// Defect 4: `twfeed post` reports a status queued only once the row survives a power
/// cut, so the connection that wrote it must run with `synchronous=FULL`. GRDB's pool
/// turns WAL on after `prepareDatabase` and sets NORMAL then, which silently undid it.
struct OutboxDurabilityTests {
    func temporaryPath() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("twfeed-durable-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder + "/twfeed.sqlite"
    }

    @Test func theConnectionThatWritesAQueuedStatusRunsWithSynchronousFull() async throws {
        let path = try temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let database = try AppDatabase.open(path: path, durable: true)
        let item = try await database.enqueue(text: "survives a power cut", replyTo: nil, now: Date())
        // A pool has one writer connection: this access is on the connection that wrote the row.
        let (synchronous, stored) = try database.tamper { db in
            (try Int.fetchOne(db, sql: "PRAGMA synchronous"), try String.fetchOne(db, sql: "SELECT text FROM outbox WHERE id = ?", arguments: [item.id]))
        }
        #expect(synchronous == 2, "synchronous=\(synchronous.map(String.init) ?? "nil") on the writer; 2 is FULL")
        #expect(stored == "survives a power cut")
    }

    @Test func theDaemonsWriterStaysAtNormal() async throws {
        let path = try temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let database = try AppDatabase.open(path: path)
        #expect(try database.tamper { try Int.fetchOne($0, sql: "PRAGMA synchronous") } == 1)
    }
}
