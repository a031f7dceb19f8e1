import Foundation
import Testing
import TwfeedCore

/// `--at TIME`: which spellings name an instant, and when one is too late to queue.
struct SendTimeTests {
    static let nineUTC = Date(timeIntervalSince1970: 1_796_115_600)  // 2026-12-01T09:00:00Z

    @Test("an offset or Z is applied: every spelling of 09:00 UTC reads the same instant", arguments: [
        "2026-12-01T09:00:00Z", "2026-12-01T10:00:00+01:00", "2026-12-01T10:00:00+0100", "2026-12-01t04:00:00-05:00",
        "2026-12-01T09:00Z", "2026-12-01T09:00:00.000z", "2026-12-01T14:30:00+05:30",
    ])
    func spellings(text: String) throws {
        #expect(try SendTime.parse(text) == Self.nineUTC)
    }

    @Test("fractions of a second are kept")
    func fraction() throws {
        #expect(try SendTime.parse("2026-12-01T09:00:00.250Z") == Self.nineUTC.addingTimeInterval(0.25))
    }

    @Test("no offset, a day the month lacks, or anything else malformed is a usage error (64)", arguments: [
        "2026-12-01T09:00:00", "2026-12-01", "tomorrow", "2026-02-30T09:00:00Z", "2026-13-01T09:00:00Z",
        "2026-12-01T24:00:00Z", "2026-12-01T09:60:00Z", "2026-12-01 09:00:00Z", "2026-12-01T09:00:00+25:00",
        "2026-12-01T09:00:00Z ", "2026-12-01T09:00:00.Z", "", "1796115600",
    ])
    func malformed(text: String) {
        #expect(throws: TwfeedError(.usage, "--at: \"\(text)\" is not an ISO 8601 time with an offset (e.g. 2026-12-01T09:00:00+01:00)")) {
            try SendTime.parse(text)
        }
    }

    @Test("a time in the past within the expiry is accepted (it goes out at once); beyond it is 65")
    func past() throws {
        let at = Self.nineUTC
        try SendTime.check(at, text: "x", now: at.addingTimeInterval(3600), maxAgeHours: 24)
        try SendTime.check(at, text: "x", now: at.addingTimeInterval(24 * 3600), maxAgeHours: 24)
        try SendTime.check(at, text: "x", now: at.addingTimeInterval(-30 * 24 * 3600), maxAgeHours: 24)
        try SendTime.check(at, text: "x", now: at.addingTimeInterval(1_000 * 3600), maxAgeHours: 0)
        #expect(
            throws: TwfeedError(
                .invalidData,
                "--at 2026-12-01T10:00:00+01:00: 30.0 h ago, beyond outbox.maxAgeHours (24.0): it would expire unsent"
            )
        ) {
            try SendTime.check(at, text: "2026-12-01T10:00:00+01:00", now: at.addingTimeInterval(30 * 3600), maxAgeHours: 24)
        }
    }
}
