import Foundation
import Logging
import Testing
@testable import TwfeedKit
@testable import TwfeedCore

struct LogReaderTests {
    static let lines = [
        "ts=2026-11-21T10:00:00.000Z level=debug event=poll.start feed=home since_id=none",
        "ts=2026-11-21T10:00:00.100Z level=info event=poll.done feed=home new=12 pages=1 ms=84",
        "ts=2026-11-21T10:00:01.000Z level=warn event=poll.failed feed=mentions status=503 error=\"HTTP 503: level=error event=x\"",
        "<3>ts=2026-11-21T10:00:02.000Z level=error event=auth.failed feed=home status=401",
        #"{"ts":"2026-11-21T10:00:03.000Z","level":"warn","event":"outbox.retry","id":"3"}"#,
        #"{"ts":"2026-11-21T10:00:04.000Z","level":"info","event":"outbox.sent","id":"3"}"#,
        "not a log line at all",
    ]

    @Test(arguments: ["warn", "warning", "WARN"])
    func levelWarnKeepsOnlyWarningsAndErrors(name: String) throws {
        let level: Logger.Level? = LogFilter.level(name)
        #expect(level == .warning)
        let filter = LogFilter(minimumLevel: level)
        #expect(Self.lines.filter(filter.matches) == [Self.lines[2], Self.lines[3], Self.lines[4]])
    }

    @Test func eventGlobsMatchLogfmtAndJSON() {
        #expect(Self.lines.filter(LogFilter(eventPattern: "poll.*").matches) == Array(Self.lines[0 ... 2]))
        #expect(Self.lines.filter(LogFilter(eventPattern: "outbox.*").matches) == [Self.lines[4], Self.lines[5]])
        #expect(Self.lines.filter(LogFilter(minimumLevel: .info, eventPattern: "*.done").matches) == [Self.lines[1]])
        // A quoted value that looks like a key does not fool the parser.
        #expect(LogFilter.fields(of: Self.lines[2]).event == "poll.failed")
        #expect(Self.lines.filter(LogFilter().matches) == Self.lines)
    }

    @Test func levelNamesAreReadAsUsersWriteThem() {
        #expect(LogFilter.level("err") == .error)
        #expect(LogFilter.level("Notice") == .notice)
        #expect(LogFilter.level("loud") == nil)
    }

    @Test func theReaderFollowsAFileAcrossRotationAndTruncation() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("twfeed-logs-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = "\(folder)/twfeed.log"
        let sink = try FileSink(path: path)
        sink.write("one", level: .info)
        let reader = try LogFileReader(path: path)
        #expect(reader.readLines() == ["one"])
        sink.write("two", level: .info)
        #expect(reader.readLines() == ["two"])
        #expect(reader.readLines() == [])
        // logrotate moves the file away; the daemon writes once more to the old one,
        // then reopens (SIGUSR1) and writes to a new file at the path.
        #expect(rename(path, path + ".1") == 0)
        sink.write("three", level: .info)
        sink.reopen()
        sink.write("four", level: .info)
        #expect(reader.readLines() == ["three", "four"])
        // copytruncate-style rotation is noticed too.
        #expect(truncate(path, 0) == 0)
        sink.write("v", level: .info)
        #expect(reader.readLines() == ["v"])
    }
}
