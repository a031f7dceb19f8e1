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
            // JSON escapes C0 controls itself; the rest a line reader or a terminal could
            // still take as a break or a command (C1, DEL, U+2028, U+2029) as well.
            guard line.unicodeScalars.contains(where: mustEscape) else { return line + "}" }
            var escaped = ""
            for scalar in line.unicodeScalars {
                if mustEscape(scalar) { escaped += unicodeEscape(scalar) } else { escaped.unicodeScalars.append(scalar) }
            }
            return escaped + "}"
        }
    }

    /// Quotes values with spaces, quotes, `=`, controls or nothing in them; escapes
    /// every kind of line break and control so an event stays on one line, whatever a
    /// tweet, a header or an answer put in a value.
    static func logfmtValue(_ value: String) -> String {
        let needsQuotes =
            value.isEmpty
            || value.contains { $0 == " " || $0 == "\"" || $0 == "=" || $0 == "\\" || $0.isNewline || $0.unicodeScalars.contains(where: mustEscape) }
        guard needsQuotes else { return value }
        var out = "\""
        for character in value {
            switch character {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n", "\r\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                guard character.unicodeScalars.contains(where: mustEscape) else {
                    out.append(character)
                    continue
                }
                for scalar in character.unicodeScalars {
                    if mustEscape(scalar) { out += unicodeEscape(scalar) } else { out.unicodeScalars.append(scalar) }
                }
            }
        }
        return out + "\""
    }

    /// A scalar that must not reach a log as itself: a C0 or C1 control (U+0085 is a line
    /// break to many readers), DEL, or the Unicode line and paragraph separators.
    static func mustEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
    }

    /// `\u2028`: the escape JSON reads, and logfmt readers show as written.
    static func unicodeEscape(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16)
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
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
