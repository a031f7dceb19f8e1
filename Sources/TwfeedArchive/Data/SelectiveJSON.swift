import Foundation
import TwfeedCore

/// Decodes only the members a post needs (its ids, time, text, links and media) and
/// checks the rest of the element's syntax without building it: most of a post's object
/// (edit history, counts, source, mentions) is never read, and building it into
/// dictionaries was most of the import's time. Any syntax error makes it answer nil; the
/// caller then parses the element whole for the error's line and column.
struct SelectiveJSON {
    /// Which members of an object to build.
    indirect enum Wanted: Sendable {
        case whole
        case members([String: Wanted])
    }

    let bytes: UnsafeBufferPointer<UInt8>
    private(set) var depth = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// The object at `at`: its kept members, how many it has in all, the byte range of
    /// each kept member's value, and where it ends.
    mutating func object(
        at start: Int,
        keeping wanted: [String: Wanted]
    )
        -> (members: [String: JSONValue], count: Int, ranges: [String: Range<Int>], end: Int)?
    {
        guard start < bytes.count, bytes[start] == UInt8(ascii: "{") else { return nil }
        depth += 1
        defer { depth -= 1 }
        guard depth < 512 else { return nil }
        var members: [String: JSONValue] = [:]
        var ranges: [String: Range<Int>] = [:]
        var count = 0
        var at = space(start + 1)
        if at < bytes.count, bytes[at] == UInt8(ascii: "}") { return (members, 0, ranges, at + 1) }
        while true {
            guard let keyEnd = string(at: at) else { return nil }
            let keyBytes = UnsafeBufferPointer(rebasing: bytes[(at + 1)..<(keyEnd - 1)])
            at = space(keyEnd)
            guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { return nil }
            at = space(at + 1)
            let valueStart = at
            // Compared as bytes: most keys are not wanted, and making each a String cost more
            // than the rest of the scan. A key with an escape is never one the reader asks for.
            let found = wanted.isEmpty ? nil : wanted.first { $0.key.utf8.elementsEqual(keyBytes) }
            let key = found?.key ?? ""
            let want = found?.value
            switch want {
            case nil:
                guard let end = skip(at: at) else { return nil }
                at = end
            case .whole?:
                guard let end = skip(at: at), let value = try? JSONValue.parse(Array(bytes[valueStart..<end])) else { return nil }
                members[key] = value
                at = end
            case .members(let inner)?:
                if at < bytes.count, bytes[at] == UInt8(ascii: "{") {
                    guard let nested = object(at: at, keeping: inner) else { return nil }
                    members[key] = .object(nested.members)
                    at = nested.end
                } else {
                    guard let end = skip(at: at), let value = try? JSONValue.parse(Array(bytes[valueStart..<end])) else { return nil }
                    members[key] = value
                    at = end
                }
            }
            if want != nil { ranges[key] = valueStart..<at }
            count += 1
            at = space(at)
            guard at < bytes.count else { return nil }
            if bytes[at] == UInt8(ascii: "}") { return (members, count, ranges, at + 1) }
            guard bytes[at] == UInt8(ascii: ",") else { return nil }
            at = space(at + 1)
        }
    }

    /// Checks the JSON value at `at` without building it; where it ends, or nil.
    mutating func skip(at start: Int) -> Int? {
        guard start < bytes.count else { return nil }
        switch bytes[start] {
        case UInt8(ascii: "\""): return string(at: start)
        case UInt8(ascii: "{"): return object(at: start, keeping: [:])?.end
        case UInt8(ascii: "["):
            depth += 1
            defer { depth -= 1 }
            guard depth < 512 else { return nil }
            var at = space(start + 1)
            if at < bytes.count, bytes[at] == UInt8(ascii: "]") { return at + 1 }
            while true {
                guard let end = skip(at: at) else { return nil }
                at = space(end)
                guard at < bytes.count else { return nil }
                if bytes[at] == UInt8(ascii: "]") { return at + 1 }
                guard bytes[at] == UInt8(ascii: ",") else { return nil }
                at = space(at + 1)
            }
        case UInt8(ascii: "t"): return word("true", at: start)
        case UInt8(ascii: "f"): return word("false", at: start)
        case UInt8(ascii: "n"): return word("null", at: start)
        default: return number(at: start)
        }
    }

    /// A string's end (one past its closing quote), its escapes and control bytes checked.
    func string(at start: Int) -> Int? {
        guard start < bytes.count, bytes[start] == UInt8(ascii: "\"") else { return nil }
        var at = start + 1
        while at < bytes.count {
            let byte = bytes[at]
            if byte == UInt8(ascii: "\"") { return at + 1 }
            if byte < 0x20 { return nil }
            if byte == UInt8(ascii: "\\") {
                guard at + 1 < bytes.count else { return nil }
                switch bytes[at + 1] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    at += 2
                case UInt8(ascii: "u"):
                    guard at + 5 < bytes.count, bytes[(at + 2)...(at + 5)].allSatisfy({ Self.isHex($0) }) else { return nil }
                    at += 6
                default: return nil
                }
                continue
            }
            at += 1
        }
        return nil
    }

    private func number(at start: Int) -> Int? {
        var at = start
        if at < bytes.count, bytes[at] == UInt8(ascii: "-") { at += 1 }
        guard at < bytes.count, Self.isDigit(bytes[at]) else { return nil }
        if bytes[at] == UInt8(ascii: "0") { at += 1 } else { while at < bytes.count, Self.isDigit(bytes[at]) { at += 1 } }
        if at < bytes.count, bytes[at] == UInt8(ascii: ".") {
            at += 1
            guard at < bytes.count, Self.isDigit(bytes[at]) else { return nil }
            while at < bytes.count, Self.isDigit(bytes[at]) { at += 1 }
        }
        if at < bytes.count, bytes[at] == UInt8(ascii: "e") || bytes[at] == UInt8(ascii: "E") {
            at += 1
            if at < bytes.count, bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") { at += 1 }
            guard at < bytes.count, Self.isDigit(bytes[at]) else { return nil }
            while at < bytes.count, Self.isDigit(bytes[at]) { at += 1 }
        }
        return at
    }

    private func word(_ word: StaticString, at start: Int) -> Int? {
        let count = word.utf8CodeUnitCount
        guard start + count <= bytes.count else { return nil }
        for index in 0..<count where bytes[start + index] != word.utf8Start[index] { return nil }
        return start + count
    }

    private func space(_ start: Int) -> Int { DataFile.skipSpace(bytes, from: start) }
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    private static func isHex(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f"))
    }
}
