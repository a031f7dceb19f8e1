import Foundation
import Logging
import Testing
@testable import TwfeedKit
import TwfeedTesting
@testable import TwfeedCore

struct EventLogHandlerTests {
    func logger(_ format: TwfeedConfig.Log.Format, _ sink: MemorySink, redactor: Redactor = Redactor(), level: Logger.Level = .info) -> Logger {
        Logger(label: "t") { _ in EventLogHandler(level: level, format: format, sink: sink, redactor: redactor) }
    }

    @Test func logfmtLineHasTimestampLevelEventAndFields() throws {
        let sink = MemorySink()
        logger(.logfmt, sink).info("poll.done", metadata: ["feed": "home", "new": "12", "ms": "84"])
        let line = try #require(sink.lines.first)
        let pattern = #/^ts=\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z level=info event=poll\.done feed=home ms=84 new=12$/#
        #expect(line.wholeMatch(of: pattern) != nil, "\(line)")
    }

    @Test func valuesWithSpacesQuotesOrNewlinesStayOnOneLine() throws {
        let sink = MemorySink()
        logger(.logfmt, sink).warning("poll.failed", metadata: ["error": "HTTP 503: \"Service\nUnavailable\""])
        let line = try #require(sink.lines.first)
        #expect(!line.contains("\n"))
        #expect(line.hasSuffix(#"error="HTTP 503: \"Service\nUnavailable\"""#))
        #expect(line.contains("level=warn "))
    }

    /// A value from outside (a header, a tweet) with every other kind of line break and
    /// control: U+2028, U+2029, U+0085, a form feed, an escape sequence. Each format keeps
    /// the event on one line, even for a reader that breaks lines on any of them, and the
    /// JSON line still reads back as the value.
    @Test(arguments: [TwfeedConfig.Log.Format.logfmt, .json])
    func everyKindOfLineBreakAndControlIsEscaped(format: TwfeedConfig.Log.Format) throws {
        let sink = MemorySink()
        let hostile = "http://evil\u{2028}ts=fake level=error event=forged\u{2029}x\u{85}y\u{0C}z\u{1B}[31mred\u{7F}"
        logger(format, sink).warning("reader.refused", metadata: ["origin": "\(hostile)"])
        let line = try #require(sink.lines.first)
        #expect(line.split(whereSeparator: \.isNewline).count == 1, "\(line)")
        #expect(!line.unicodeScalars.contains { $0.properties.generalCategory == .control || $0 == "\u{2028}" || $0 == "\u{2029}" })
        #expect(line.contains(#"\u2028"#) && line.contains(#"\u0085"#) && line.contains(#"\u001b"#))
        if format == .json {
            #expect(try JSONValue.parse(line)["origin"] == .string(hostile))
        } else {
            #expect(line.contains(#"origin="http://evil\u2028ts=fake level=error event=forged\u2029x\u0085y\u000cz\u001b[31mred\u007f""#), "\(line)")
        }
    }

    @Test func jsonFormatCarriesTheSameKeys() throws {
        let sink = MemorySink()
        logger(.json, sink).error("auth.failed", metadata: ["feed": "home", "status": "401"])
        let line = try #require(sink.lines.first)
        let object = try #require(try JSONValue.parse(line).object)
        #expect(object["level"] == .string("error"))
        #expect(object["event"] == .string("auth.failed"))
        #expect(object["feed"] == .string("home"))
        #expect(object["status"] == .string("401"))
        #expect(object["ts"]?.string?.hasSuffix("Z") == true)
    }

    @Test func levelsBelowTheConfiguredOneAreDropped() {
        let sink = MemorySink()
        let log = logger(.logfmt, sink, level: .warning)
        log.info("poll.done")
        log.debug("poll.page")
        log.warning("poll.failed")
        #expect(sink.lines.count == 1)
    }

    @Test func aRegisteredSecretNeverReachesTheSink() throws {
        let sink = MemorySink()
        let redactor = Redactor()
        redactor.register(["s3cr3t/value+with=chars"])
        logger(.logfmt, sink, redactor: redactor).info("oops", metadata: [
            "raw": "s3cr3t/value+with=chars", "encoded": "\(PercentEncoding.encode("s3cr3t/value+with=chars"))",
        ])
        let line = try #require(sink.lines.first)
        #expect(!line.contains("s3cr3t"))
        #expect(line.contains("[redacted]"))
    }

    @Test func credentialsNeverDescribeTheirSecrets() {
        let credentials = Credentials(consumerKey: "ck", consumerSecret: "consumer-secret", accessToken: "at", accessTokenSecret: "token-secret")
        #expect(!"\(credentials)".contains("secret"))
    }
}
