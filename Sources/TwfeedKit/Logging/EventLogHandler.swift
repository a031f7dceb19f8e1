import Foundation
import Logging
import Synchronization
import TwfeedBase
import TwfeedCore

/// Formats one event per line: `ts=… level=… event=… key=value …` (logfmt) or the same
/// keys as a JSON object. The log message is the event name; metadata are its fields.
///
/// Secrets are kept out at the source, and as a last line of defence every secret the
/// `Redactor` knows is replaced before a line is written.
package struct EventLogHandler: LogHandler {
    package var logLevel: Logger.Level
    package var metadata: Logger.Metadata = [:]
    package var metadataProvider: Logger.MetadataProvider?

    let format: TwfeedConfig.Log.Format
    let sink: any LogSink
    let redactor: Redactor

    package init(level: Logger.Level, format: TwfeedConfig.Log.Format, sink: any LogSink, redactor: Redactor = Redactor()) {
        logLevel = level
        self.format = format
        self.sink = sink
        self.redactor = redactor
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        var fields = metadata
        if let provided = metadataProvider?.get() { fields.merge(provided) { $1 } }
        if let extra = event.metadata { fields.merge(extra) { $1 } }
        if let error = event.error, fields["error"] == nil { fields["error"] = "\(error)" }
        let line = Self.format(
            timestamp: Date(),
            level: event.level,
            event: event.message.description,
            fields: fields,
            format: format
        )
        sink.write(redactor.redact(line), level: event.level)
    }

    package static func levelName(_ level: Logger.Level) -> String {
        level.lineName
    }

    static func format(timestamp: Date, level: Logger.Level, event: String, fields: Logger.Metadata, format: TwfeedConfig.Log.Format) -> String {
        let ts = Timestamp.iso8601Milliseconds(timestamp)
        let keys = fields.keys.sorted()
        switch format {
        case .logfmt:
            var line = "ts=\(ts) level=\(levelName(level)) event=\(logfmtValue(event))"
            for key in keys {
                line += " \(key)=\(logfmtValue(fields[key]!.description))"
            }
            return line
        case .json:
            var line = "{"
            JSONValue.writeString("ts", to: &line)
            line += ":"
            JSONValue.writeString(ts, to: &line)
            line += ","
            JSONValue.writeString("level", to: &line)
            line += ":"
            JSONValue.writeString(levelName(level), to: &line)
            line += ","
            JSONValue.writeString("event", to: &line)
            line += ":"
            JSONValue.writeString(event, to: &line)
            for key in keys {
                line += ","
                JSONValue.writeString(key, to: &line)
                line += ":"
                JSONValue.writeString(fields[key]!.description, to: &line)
            }
            return line + "}"
        }
    }

    /// Quotes values with spaces, quotes, `=` or nothing in them; escapes newlines so
    /// an event stays on one line.
    static func logfmtValue(_ value: String) -> String {
        let needsQuotes = value.isEmpty || value.contains { $0 == " " || $0 == "\"" || $0 == "=" || $0 == "\\" || $0.isNewline || $0 == "\t" }
        guard needsQuotes else { return value }
        var out = "\""
        for character in value {
            switch character {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n", "\r\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default: out.append(character)
            }
        }
        return out + "\""
    }
}

/// The secrets a log line must never show. Filled once credentials are loaded.
package final class Redactor: Sendable {
    private let secrets = Mutex<[String]>([])

    package init() {}

    package func register(_ values: [String]) {
        secrets.withLock { current in
            for value in values where value.count >= 4 && !current.contains(value) {
                current.append(value)
                // The percent-encoded form appears in signing keys and headers.
                let encoded = PercentEncoding.encode(value)
                if encoded != value { current.append(encoded) }
            }
        }
    }

    package func redact(_ line: String) -> String {
        let current = secrets.withLock { $0 }
        var line = line
        for secret in current where line.contains(secret) {
            line = line.replacingOccurrences(of: secret, with: "[redacted]")
        }
        return line
    }
}
