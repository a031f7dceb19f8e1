import Foundation

/// A JSON document built by the emulator (a writer only; TwfeedKit's `JSONValue` is a reader,
/// and the names differ so both read unqualified).
///
/// The emulator writes its own JSON instead of using `JSONSerialization` for two reasons:
/// objects keep their key order (answers read like the real API's), and `number` holds a raw
/// literal, so v1.1's numeric `id` can exceed 2^53 exactly as the real API sends it — the very
/// thing a client must survive by reading `id_str` instead.
enum EmulatorJSON: Sendable {
    case null
    case bool(Bool)
    case int(Int)
    /// A number written exactly as given (used for 64-bit ids that a Double would round).
    case number(String)
    case string(String)
    case array([EmulatorJSON])
    case object([(String, EmulatorJSON)])

    /// A 64-bit id as a JSON number literal.
    static func id(_ value: UInt64) -> EmulatorJSON { .number(String(value)) }

    /// A string, or `null` when absent (v1.1 spells missing fields as null).
    static func stringOrNull(_ value: String?) -> EmulatorJSON {
        value.map(EmulatorJSON.string) ?? .null
    }

    /// The compact UTF-8 encoding.
    var bytes: [UInt8] { Array(serialized.utf8) }

    /// The compact text encoding.
    var serialized: String {
        var out = ""
        out.reserveCapacity(256)
        write(into: &out)
        return out
    }

    private func write(into out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .int(let value): out += String(value)
        case .number(let literal): out += literal
        case .string(let value): EmulatorJSON.writeString(value, into: &out)
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                item.write(into: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { out += "," }
                EmulatorJSON.writeString(member.0, into: &out)
                out += ":"
                member.1.write(into: &out)
            }
            out += "}"
        }
    }

    /// Escapes only what JSON requires; non-ASCII text (emoji, CJK) stays as UTF-8, as the real API sends it.
    /// Most strings need no escape and are appended whole, the same bytes as the loop
    /// below; scalar by scalar, this writer was 5 % of the fault matrix's profile.
    private static func writeString(_ value: String, into out: inout String) {
        out += "\""
        if !value.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            out += value
            out += "\""
            return
        }
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                out +=
                    "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
