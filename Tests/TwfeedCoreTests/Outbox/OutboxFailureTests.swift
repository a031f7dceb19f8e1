import Testing
@testable import TwfeedCore

/// An outbox status's last failure (or note) is a value; its one line, which the store
/// keeps and `outbox list`, `--json`, the `posts` view and the reader show, reads back
/// into the same value and prints the same bytes, whatever version wrote it.
@Suite struct OutboxFailureTests {
    /// Every line the flusher writes, with the value it is.
    static let lines: [(String, OutboxFailure)] = [
        ("HTTP 503: Service Unavailable", OutboxFailure(kind: .attempt, status: 503, message: "Service Unavailable")),
        (
            "HTTP 403 code 187: Status is a duplicate.",
            OutboxFailure(kind: .attempt, status: 403, code: 187, message: "Status is a duplicate.")
        ),
        ("no answer: timed out", OutboxFailure(kind: .attempt, message: "timed out")),
        (
            "expired after 49.0 h in the queue (maxAgeHours 48.0)",
            OutboxFailure(kind: .expired, message: "after 49.0 h in the queue (maxAgeHours 48.0)")
        ),
        ("settling: HTTP 429 code 88: Rate limit exceeded", OutboxFailure(kind: .settlingFailed, status: 429, code: 88, message: "Rate limit exceeded")),
        ("settling: no answer: timeout", OutboxFailure(kind: .settlingFailed, message: "timeout")),
        (
            "settling: held (spend_cap) until 2026-11-28T12:00:00Z: Spend cap reached",
            OutboxFailure(kind: .settlingHeld, message: "held (spend_cap) until 2026-11-28T12:00:00Z: Spend cap reached")
        ),
        (
            "settling: own posts refused (HTTP 403: Forbidden); sending again, a duplicate answer proves it went out",
            OutboxFailure(kind: .settlingResend, message: "own posts refused (HTTP 403: Forbidden)")
        ),
        (
            "settling: the budget cannot pay for reading own posts; sending again, a duplicate answer proves it went out",
            OutboxFailure(kind: .settlingResend, message: "the budget cannot pay for reading own posts")
        ),
        (
            "sent: the API called a resend a duplicate (HTTP 403 code 187: Status is a duplicate.)",
            OutboxFailure(kind: .sentAsDuplicate, status: 403, code: 187, message: "Status is a duplicate.")
        ),
    ]

    @Test(arguments: lines)
    func eachLineReadsIntoItsPartsAndPrintsTheSameBytes(line: String, failure: OutboxFailure) {
        #expect(failure.description == line)
        #expect(OutboxFailure(stored: line) == failure)
    }

    /// Lines no version of the flusher wrote (a hand-edited row, a newer version's
    /// wording) stay whole, and lines that only look like one of its kinds are not bent
    /// into one that would print differently.
    @Test(arguments: [
        "403 Forbidden: not allowed",
        "timeout",
        "",
        "HTTP 503:no space after the colon",
        "HTTP  503: two spaces",
        "settling: something new",
        "sent: the API called a resend a duplicate (unclosed",
        "expired",
        "no answer code x: not a number",
    ])
    func anyOtherLineIsKeptWhole(line: String) {
        let read = OutboxFailure(stored: line)
        #expect(read.description == line)
        #expect(read == OutboxFailure(kind: .other, message: line))
    }

    @Test func expiryIsSpelledAsTheFlusherAlwaysSpelledIt() {
        #expect(OutboxFailure.expired(age: "49.0", limit: "48.0").description == "expired after 49.0 h in the queue (maxAgeHours 48.0)")
    }
}
