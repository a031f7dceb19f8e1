import Foundation
import GRDB
import Testing
@testable import TwfeedCore
@testable import TwfeedStatus
@testable import TwfeedStore

/// A feed's last failure is a typed value in the store and in the status snapshot, and
/// `twfeed status` still prints the line it always printed, for a row or a snapshot
/// written before the value was typed too.
struct PollFailureTests {
    static let legacyLines: [(String, PollFailure)] = [
        ("HTTP 503: Service Unavailable", PollFailure(kind: .transient, status: 503, message: "Service Unavailable")),
        ("HTTP 429 code 88: Rate limit exceeded", PollFailure(kind: .rateLimited, status: 429, code: 88, message: "Rate limit exceeded")),
        ("HTTP 401: Unauthorized", PollFailure(kind: .unauthorized, status: 401, message: "Unauthorized")),
        ("HTTP 403: Forbidden: not yours", PollFailure(kind: .rejected, status: 403, message: "Forbidden: not yours")),
        ("HTTP 200: malformed answer: no data", PollFailure(kind: .transient, status: 200, message: "malformed answer: no data")),
        ("no answer: timed out", PollFailure(kind: .transient, message: "timed out")),
        (
            "held (spend_cap) until 2026-11-28T12:00:00Z: Spend cap reached",
            PollFailure(kind: .held, message: "held (spend_cap) until 2026-11-28T12:00:00Z: Spend cap reached")
        ),
    ]

    func database() async throws -> AppDatabase {
        let database = try AppDatabase.inMemory()
        try await database.saveAccount(Account(userID: UserID(1001), username: "alice", accessToken: "token"))
        return database
    }

    @Test func aFailureIsStoredWholeAndPrintsItsLine() async throws {
        let database = try await database()
        var state = SyncState(feed: .home)
        state.lastError = PollFailure(kind: .rateLimited, status: 429, code: 88, message: "Rate limit exceeded")
        try await database.saveSyncState(state)
        let read = try await database.syncState(.home).lastError
        #expect(read == state.lastError)
        #expect(read?.description == "HTTP 429 code 88: Rate limit exceeded")
    }

    @Test(arguments: legacyLines)
    func aLineStoredBeforeTheTypeReadsAsItsParts(line: String, failure: PollFailure) async throws {
        let database = try await database()
        try await database.saveSyncState(SyncState(feed: .home))
        try database.tamper { db in try db.execute(sql: "UPDATE syncState SET lastError = ?", arguments: [line]) }
        let read = try await database.syncState(.home).lastError
        #expect(read == failure)
        #expect(read?.description == line, "status prints what it printed before the upgrade")
    }

    @Test func aSnapshotWrittenBeforeTheTypeStillReads() throws {
        let old = Data(#"{"enabled":true,"tweets":3,"lastError":"HTTP 503: Service Unavailable"}"#.utf8)
        let counts = try JSONDecoder().decode(StatusSnapshot.FeedCounts.self, from: old)
        #expect(counts.lastError == PollFailure(kind: .transient, status: 503, message: "Service Unavailable"))
        let again = try JSONDecoder().decode(StatusSnapshot.FeedCounts.self, from: try JSONEncoder().encode(counts))
        #expect(again == counts)
    }
}
