import Foundation
import GRDB
import Testing
@testable import TwfeedCore
@testable import TwfeedStore

/// An outbox status's last failure goes into `outbox.lastError` as its one line and comes
/// back as the same value; a line an older version stored reads into its parts and
/// prints the same; and the `posts` view, which SQL users read, shows the line itself.
struct OutboxFailureStoreTests {
    /// One of each kind the flusher writes, and a line none of them reads.
    static let failures = [
        OutboxFailure(kind: .attempt, status: 503, message: "Service Unavailable"),
        OutboxFailure(kind: .attempt, message: "connection reset"),
        OutboxFailure.expired(age: "72.5", limit: "72.0"),
        OutboxFailure(kind: .settlingFailed, status: 429, code: 88, message: "Rate limit exceeded"),
        OutboxFailure(kind: .settlingHeld, message: "held (budget) until 2026-11-29T00:00:00Z"),
        OutboxFailure(kind: .settlingResend, message: "the budget cannot pay for reading own posts"),
        OutboxFailure(kind: .sentAsDuplicate, status: 403, code: 187, message: "Status is a duplicate."),
        OutboxFailure(kind: .other, message: "403 Forbidden: not allowed"),
    ]

    @Test(arguments: failures)
    func aFailureRoundTripsThroughTheColumnAsItsLine(failure: OutboxFailure) async throws {
        let database = try AppDatabase.inMemory()
        let item = try await database.enqueue(text: "hello", replyTo: nil, now: Date())
        _ = try await database.transitionOutbox(item.id, from: [.pending], to: .failed, changes: [.lastError(failure)])
        #expect(try await database.outboxItem(item.id)?.lastError == failure)
        let (column, view) = try database.tamper { db in
            (
                try String.fetchOne(db, sql: "SELECT lastError FROM outbox WHERE id = ?", arguments: [item.id]),
                try String.fetchOne(db, sql: "SELECT last_error FROM posts WHERE id = ?", arguments: [item.id])
            )
        }
        #expect(column == failure.description)
        #expect(view == failure.description)
    }

    /// Rows written while `lastError` was a string: the flusher's lines, and lines none
    /// of its kinds reads.
    @Test(arguments: [
        "HTTP 403 code 385: You attempted to reply to a Tweet that is deleted or not visible to you.",
        "no answer: The request timed out.",
        "expired after 49.0 h in the queue (maxAgeHours 48.0)",
        "settling: held (spend_cap) until 2026-11-28T12:00:00Z: Spend cap reached",
        "settling: own posts refused (HTTP 403: Forbidden); sending again, a duplicate answer proves it went out",
        "sent: the API called a resend a duplicate (HTTP 403 code 187: Status is a duplicate.)",
        "403 Forbidden: not allowed",
        "timeout",
    ])
    func aLineStoredByAnOlderVersionReadsBackAndPrintsTheSame(line: String) async throws {
        let database = try AppDatabase.inMemory()
        let item = try await database.enqueue(text: "hello", replyTo: nil, now: Date())
        try database.tamper { db in try db.execute(sql: "UPDATE outbox SET lastError = ? WHERE id = ?", arguments: [line, item.id]) }
        let read = try #require(try await database.outboxItem(item.id)?.lastError)
        #expect(read.description == line)
        #expect(read == OutboxFailure(stored: line))
        #expect(try await database.outboxItem(item.id)?.json["lastError"] == .string(line))
        // Written back unchanged (a transition that does not touch it) it stays the same bytes.
        _ = try await database.transitionOutbox(item.id, from: [.pending], to: .failed, changes: [.lastError(read)])
        let stored = try database.tamper { db in try String.fetchOne(db, sql: "SELECT lastError FROM outbox WHERE id = ?", arguments: [item.id]) }
        #expect(stored == line)
    }

    @Test func noFailureIsNull() async throws {
        let database = try AppDatabase.inMemory()
        let item = try await database.enqueue(text: "hello", replyTo: nil, now: Date())
        #expect(try await database.outboxItem(item.id)?.lastError == nil)
        #expect(try await database.outboxItem(item.id)?.json["lastError"] == .null)
    }
}
