import Foundation

/// A parsed JSON document.
///
/// twfeed parses JSON itself for two reasons: numbers keep their exact text (v1.1
/// sends ids above 2^53 as numbers, which a Double would corrupt), and a syntax error
/// is reported with its line and column, so a user can find it in their config.
package enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// The number's text exactly as it appeared.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    package struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        package var line: Int
        package var column: Int
        package var reason: String
        package var description: String { "line \(line), column \(column): \(reason)" }
    }

    // MARK: Access

    package subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    package var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// A string, or a number's text (ids arrive as either).
    package var idText: String? {
        switch self {
        case .string(let value): return value
        case .number(let text): return text
        default: return nil
        }
    }

    package var int: Int? {
        if case .number(let text) = self { return Int(text) ?? Double(text).flatMap { Int(exactly: $0) } }
        return nil
    }

    package var double: Double? {
        if case .number(let text) = self { return Double(text) }
        return nil
    }

    package var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    package var array: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    package var object: [String: JSONValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The JSON type's name, for error messages.
    package var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
