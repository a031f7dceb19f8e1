import Foundation
import Testing

// MARK: - A YAML reader for exactly what the weighted-length sections use

/// Block mappings and sequences by indentation, double- and single-quoted scalars with
/// YAML escapes (`\U0001f431`, `\u200F`, `\n`, `\"`, `\\`, …), integers, booleans and
/// plain strings. Anything else (flow collections, block scalars, anchors, tags, multi-line
/// quoted strings) is an error, so a change in the corpus fails loudly instead of being
/// misread. Works on Unicode scalars: the corpus has combining marks next to quotes,
/// which Character-based parsing would glue together.
indirect enum YAMLValue: Equatable {
    case string(String)
    case int(Int)
    case bool(Bool)
    case null
    case list([YAMLValue])
    case map([String: YAMLValue])
}

struct YAMLError: Error, CustomStringConvertible {
    let line: Int
    let message: String
    var description: String { "validate.yml line \(line): \(message)" }
}

struct ConformanceCase {
    let description: String
    let text: String
    let expected: [String: YAMLValue]

    static func load(section: String, from file: URL) throws -> [ConformanceCase] {
        let source = try String(contentsOf: file, encoding: .utf8)
        guard case .list(let items) = try MiniYAML.section(section, in: source) else {
            throw YAMLError(line: 0, message: "section \(section) is not a list")
        }
        return try items.map { item in
            guard case .map(let fields) = item,
                  case .string(let description)? = fields["description"],
                  case .string(let text)? = fields["text"],
                  case .map(let expected)? = fields["expected"] else {
                throw YAMLError(line: 0, message: "a case in \(section) lacks description, text or an expected map")
            }
            return ConformanceCase(description: description, text: text, expected: expected)
        }
    }
}

struct MiniYAML {
    private struct Line {
        let number: Int
        let indent: Int
        let content: [Unicode.Scalar]
    }

    private var lines: [Line]
    private var position = 0

    /// The value under `  name:` in the document's top-level `tests:` mapping.
    static func section(_ name: String, in source: String) throws -> YAMLValue {
        var all: [Line] = []
        var current: [Unicode.Scalar] = []
        var number = 1
        func finish() {
            if current.last == "\r" { current.removeLast() }
            var indent = 0
            while indent < current.count, current[indent] == " " { indent += 1 }
            let content = Array(current[indent...])
            if !content.isEmpty, content.first != "#", !(content.allSatisfy { $0 == " " || $0 == "\t" }) {
                all.append(Line(number: number, indent: indent, content: content))
            }
            current = []
            number += 1
        }
        for scalar in source.unicodeScalars {
            if scalar == "\n" { finish() } else { current.append(scalar) }
        }
        finish()

        let header = Array("\(name):".unicodeScalars)
        guard let start = all.firstIndex(where: { $0.content == header }) else {
            throw YAMLError(line: 0, message: "section \(name) not found")
        }
        let sectionIndent = all[start].indent
        var end = start + 1
        while end < all.count, all[end].indent > sectionIndent { end += 1 }
        guard end > start + 1 else { return .null }
        var reader = MiniYAML(lines: Array(all[(start + 1)..<end]))
        let value = try reader.block(indent: reader.lines[0].indent)
        guard reader.position == reader.lines.count else {
            throw YAMLError(line: reader.lines[reader.position].number, message: "unexpected indentation")
        }
        return value
    }

    private init(lines: [Line]) {
        self.lines = lines
    }

    private mutating func block(indent: Int) throws -> YAMLValue {
        let line = lines[position]
        if line.content.first == "-", line.content.count == 1 || line.content[1] == " " {
            return try sequence(indent: indent)
        }
        return try mapping(indent: indent)
    }

    private mutating func sequence(indent: Int) throws -> YAMLValue {
        var items: [YAMLValue] = []
        while position < lines.count, lines[position].indent == indent, lines[position].content.first == "-" {
            let line = lines[position]
            var rest = Array(line.content.dropFirst())
            var offset = 1
            while rest.first == " " { rest.removeFirst(); offset += 1 }
            if rest.isEmpty {
                position += 1
                guard position < lines.count, lines[position].indent > indent else { items.append(.null); continue }
                items.append(try block(indent: lines[position].indent))
            } else {
                // "- key: value" opens a mapping whose keys line up with "key".
                lines[position] = Line(number: line.number, indent: indent + offset, content: rest)
                items.append(try block(indent: indent + offset))
            }
        }
        return .list(items)
    }

    private mutating func mapping(indent: Int) throws -> YAMLValue {
        var fields: [String: YAMLValue] = [:]
        while position < lines.count, lines[position].indent == indent {
            let line = lines[position]
            guard line.content.first != "-" else { break }
            guard let colon = keyEnd(line.content) else {
                throw YAMLError(line: line.number, message: "expected \"key: value\"")
            }
            let key = String(String.UnicodeScalarView(line.content[..<colon]))
            var rest = Array(line.content[(colon + 1)...])
            while rest.first == " " { rest.removeFirst() }
            position += 1
            if rest.isEmpty || rest.first == "#" {
                if position < lines.count, lines[position].indent > indent {
                    fields[key] = try block(indent: lines[position].indent)
                } else {
                    fields[key] = .null
                }
            } else {
                fields[key] = try scalar(rest, line: line.number)
            }
        }
        return .map(fields)
    }

    /// Index of the ":" ending a plain key.
    private func keyEnd(_ content: [Unicode.Scalar]) -> Int? {
        guard let first = content.first, !"\"'[{&*!|>%@`".unicodeScalars.contains(first) else { return nil }
        for index in content.indices where content[index] == ":" {
            if index + 1 == content.count || content[index + 1] == " " { return index }
        }
        return nil
    }

    private func scalar(_ content: [Unicode.Scalar], line: Int) throws -> YAMLValue {
        switch content.first {
        case "\"":
            return .string(try doubleQuoted(content, line: line))
        case "'":
            return .string(try singleQuoted(content, line: line))
        case "[", "{", "|", ">", "&", "*", "!", "%", "@", "`":
            throw YAMLError(line: line, message: "unsupported YAML syntax \(String(String.UnicodeScalarView(content)))")
        default:
            var plain = content
            if let comment = (plain.indices.first { index in
                plain[index] == "#" && index > 0 && plain[index - 1] == " "
            }) {
                plain = Array(plain[..<comment])
            }
            while plain.last == " " || plain.last == "\t" { plain.removeLast() }
            let text = String(String.UnicodeScalarView(plain))
            switch text {
            case "true", "True", "TRUE": return .bool(true)
            case "false", "False", "FALSE": return .bool(false)
            case "null", "~", "": return .null
            default: return Int(text).map(YAMLValue.int) ?? .string(text)
            }
        }
    }

    private func singleQuoted(_ content: [Unicode.Scalar], line: Int) throws -> String {
        var result = String.UnicodeScalarView()
        var index = 1
        while index < content.count {
            let scalar = content[index]
            if scalar == "'" {
                if index + 1 < content.count, content[index + 1] == "'" {
                    result.append("'")
                    index += 2
                    continue
                }
                try expectEnd(content, after: index, line: line)
                return String(result)
            }
            result.append(scalar)
            index += 1
        }
        throw YAMLError(line: line, message: "unterminated or multi-line single-quoted string")
    }

    private func doubleQuoted(_ content: [Unicode.Scalar], line: Int) throws -> String {
        var result = String.UnicodeScalarView()
        var pendingHighSurrogate: UInt32?
        var index = 1
        while index < content.count {
            let scalar = content[index]
            if scalar == "\"" {
                guard pendingHighSurrogate == nil else { throw YAMLError(line: line, message: "unpaired surrogate escape") }
                try expectEnd(content, after: index, line: line)
                return String(result)
            }
            guard scalar == "\\" else {
                guard pendingHighSurrogate == nil else { throw YAMLError(line: line, message: "unpaired surrogate escape") }
                result.append(scalar)
                index += 1
                continue
            }
            guard index + 1 < content.count else { break }
            let escape = content[index + 1]
            index += 2
            let simple: [Unicode.Scalar: Unicode.Scalar] = [
                "0": "\u{0}", "a": "\u{7}", "b": "\u{8}", "t": "\t", "\t": "\t", "n": "\n", "v": "\u{B}",
                "f": "\u{C}", "r": "\r", "e": "\u{1B}", " ": " ", "\"": "\"", "/": "/", "\\": "\\",
                "N": "\u{85}", "_": "\u{A0}", "L": "\u{2028}", "P": "\u{2029}",
            ]
            if let replacement = simple[escape] {
                guard pendingHighSurrogate == nil else { throw YAMLError(line: line, message: "unpaired surrogate escape") }
                result.append(replacement)
                continue
            }
            let digits: Int
            switch escape {
            case "x": digits = 2
            case "u": digits = 4
            case "U": digits = 8
            default: throw YAMLError(line: line, message: "unknown escape \\\(escape)")
            }
            guard index + digits <= content.count,
                  let value = UInt32(String(String.UnicodeScalarView(content[index..<(index + digits)])), radix: 16) else {
                throw YAMLError(line: line, message: "bad \\\(escape) escape")
            }
            index += digits
            // Some corpora spell astral characters as \u surrogate pairs; accept those.
            if (0xD800...0xDBFF).contains(value) {
                guard pendingHighSurrogate == nil else { throw YAMLError(line: line, message: "unpaired surrogate escape") }
                pendingHighSurrogate = value
                continue
            }
            var codePoint = value
            if let high = pendingHighSurrogate {
                guard (0xDC00...0xDFFF).contains(value) else { throw YAMLError(line: line, message: "unpaired surrogate escape") }
                codePoint = 0x10000 + ((high - 0xD800) << 10) + (value - 0xDC00)
                pendingHighSurrogate = nil
            }
            guard let decoded = Unicode.Scalar(codePoint) else {
                throw YAMLError(line: line, message: "escape \\\(escape) is not a Unicode scalar")
            }
            result.append(decoded)
        }
        throw YAMLError(line: line, message: "unterminated or multi-line double-quoted string")
    }

    /// Only spaces or a comment may follow a closing quote.
    private func expectEnd(_ content: [Unicode.Scalar], after index: Int, line: Int) throws {
        let rest = content[(index + 1)...].drop { $0 == " " || $0 == "\t" }
        guard rest.isEmpty || rest.first == "#" else {
            throw YAMLError(line: line, message: "text after a quoted string")
        }
    }
}