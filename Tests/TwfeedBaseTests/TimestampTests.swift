import Foundation
import Testing
import TwfeedBase

/// The date spellings twfeed and its emulator share: if these drift, the client and the
/// emulator disagree on every created_at.
@Suite struct TimestampTests {
    let date = Date(timeIntervalSince1970: 1_539_202_764.25)  // 2018-10-10T20:19:24.250Z, a Wednesday

    @Test func formats() {
        #expect(Timestamp.iso8601Milliseconds(date) == "2018-10-10T20:19:24.250Z")
        #expect(Timestamp.iso8601(date) == "2018-10-10T20:19:24Z")
        #expect(Timestamp.twitterDate(date) == "Wed Oct 10 20:19:24 +0000 2018")
    }

    /// The byte path `feed --json` uses spells every instant as `iso8601` does: epoch,
    /// leap day, end of year, before 1970, fractions (dropped, not rounded), far years.
    @Test func appendedBytesMatchTheString() {
        let instants: [Double] = [0, 951_782_400, 1_709_164_799.999, 1_735_689_599.5, -1, -86_400.25,
                                  1_764_000_000, 4_102_444_800, 253_402_300_799, 253_402_300_800, -62_167_219_201]
        for seconds in instants {
            let date = Date(timeIntervalSince1970: seconds)
            var bytes: [UInt8] = []
            Timestamp.appendISO8601(date, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == Timestamp.iso8601(date), "\(seconds)")
        }
    }

    @Test func parsesWhatItFormats() {
        #expect(Timestamp.parseISO8601(Timestamp.iso8601Milliseconds(date)) == date)
        #expect(Timestamp.parseISO8601(Timestamp.iso8601(date)) == Date(timeIntervalSince1970: 1_539_202_764))
        #expect(Timestamp.parseTwitterDate(Timestamp.twitterDate(date)) == Date(timeIntervalSince1970: 1_539_202_764))
        #expect(Timestamp.parseTwitterDate("Wed Oct 10 22:19:24 +0200 2018") == Date(timeIntervalSince1970: 1_539_202_764))
    }

    @Test func refusesMalformedISO8601() {
        for text in ["2018-10-10 20:19:24Z", "2018-10-10T20:19:24", "2018-13-10T20:19:24Z", "2018-10-10T20:19:24+00:00",
                     "2018-10-10T24:00:00Z", "2018/10/10T20:19:24Z", "2018-10-10T20:19:24.5Zx", ""] {
            #expect(Timestamp.parseISO8601(text) == nil, "\(text)")
        }
    }
}
