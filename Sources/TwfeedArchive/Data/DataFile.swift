import Foundation

/// One data file of the archive: JavaScript that assigns one JSON value to a global
/// (`window.YTD.tweets.part0 = [ ... ]`, manifest.js `window.__THAR_CONFIG = { ... }`).
/// Nothing is evaluated: the assignment's shape is checked byte by byte, and the array's
/// elements are found by a string-aware bracket scan, so each is decoded alone and no
/// tree of the whole file is ever built.
struct DataFile {
    /// `YTD.tweets.part0`, `__THAR_CONFIG`.
    var globalName: String
    /// The assigned value's bytes within the file.
    var value: Range<Int>

    /// Reads the assignment: `window.NAME = VALUE` and at most a `;`, white space around.
    static func assignment(_ data: Data, file: String) throws(ArchiveError) -> DataFile {
        try data.withBytes { bytes throws(ArchiveError) in
            var at = 0
            if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { at = 3 }
            at = skipSpace(bytes, from: at)
            let prefix = Array("window.".utf8)
            guard bytes.count - at >= prefix.count, zip(prefix, bytes[at..<(at + prefix.count)]).allSatisfy({ $0 == $1 }) else {
                throw ArchiveError(.badData, file: file, "is not `window.YTD.<name>.partN = [JSON]`: it does not start with window.")
            }
            at += prefix.count
            let nameStart = at
            while at < bytes.count, isNameByte(bytes[at]) { at += 1 }
            let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[nameStart..<at]), as: UTF8.self)
            guard !name.isEmpty, !name.hasPrefix("."), !name.hasSuffix("."), !name.contains("..") else {
                throw ArchiveError(.badData, file: file, "is not `window.YTD.<name>.partN = [JSON]`: no name after window.")
            }
            at = skipSpace(bytes, from: at)
            guard at < bytes.count, bytes[at] == UInt8(ascii: "=") else {
                throw ArchiveError(.badData, file: file, "is not `window.YTD.<name>.partN = [JSON]`: no = after window.\(name)")
            }
            at = skipSpace(bytes, from: at + 1)
            guard at < bytes.count, bytes[at] == UInt8(ascii: "[") || bytes[at] == UInt8(ascii: "{") else {
                throw ArchiveError(.badData, file: file, "is not `window.YTD.<name>.partN = [JSON]`: the value is not an array")
            }
            guard let end = valueEnd(bytes, from: at) else {
                throw ArchiveError(.badData, file: file, "is not `window.YTD.<name>.partN = [JSON]`: the value never closes")
            }
            var rest = skipSpace(bytes, from: end)
            if rest < bytes.count, bytes[rest] == UInt8(ascii: ";") { rest = skipSpace(bytes, from: rest + 1) }
            guard rest == bytes.count else {
                throw ArchiveError(.badData, file: file, "is not `window.YTD.<name>.partN = [JSON]`: text follows the value")
            }
            return DataFile(globalName: name, value: at..<end)
        }
    }

    /// A `YTD.<name>.partN` file's array: the byte range of each element, each an object.
    static func elements(_ data: Data, file: String) throws(ArchiveError) -> [Range<Int>] {
        let assignment = try assignment(data, file: file)
        let parts = assignment.globalName.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "YTD", parts[2].hasPrefix("part"), parts[2].count > 4,
            parts[2].dropFirst(4).allSatisfy({ $0.isASCII && $0.isNumber })
        else {
            throw ArchiveError(.badData, file: file, "is not `window.YTD.<name>.partN = [JSON]`: it assigns window.\(assignment.globalName)")
        }
        return try data.withBytes { bytes throws(ArchiveError) in
            guard bytes[assignment.value.lowerBound] == UInt8(ascii: "[") else {
                throw ArchiveError(.badData, file: file, "is not `window.YTD.<name>.partN = [JSON]`: the value is not an array")
            }
            var ranges: [Range<Int>] = []
            var at = skipSpace(bytes, from: assignment.value.lowerBound + 1)
            let close = assignment.value.upperBound - 1
            while at < close {
                guard bytes[at] == UInt8(ascii: "{"), let end = valueEnd(bytes, from: at), end <= close else {
                    throw ArchiveError(.badData, file: file, "entry \(ranges.count + 1) is not an object")
                }
                ranges.append(at..<end)
                at = skipSpace(bytes, from: end)
                if at < close {
                    guard bytes[at] == UInt8(ascii: ",") else {
                        throw ArchiveError(.badData, file: file, "entry \(ranges.count) is not followed by , or ]")
                    }
                    at = skipSpace(bytes, from: at + 1)
                    guard at < close else { throw ArchiveError(.badData, file: file, "a , ends the array") }
                }
            }
            return ranges
        }
    }

    /// Where the bracketed value starting at `start` ends (one past its closing bracket),
    /// skipping brackets inside strings; nil when it never closes.
    static func valueEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var depth = 0
        var at = start
        let count = bytes.count
        while at < count {
            let byte = bytes[at]
            switch byte {
            case UInt8(ascii: "\""):
                at += 1
                while at < count, bytes[at] != UInt8(ascii: "\"") {
                    at += bytes[at] == UInt8(ascii: "\\") ? 2 : 1
                }
                if at >= count { return nil }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { return at + 1 }
            default:
                break
            }
            at += 1
        }
        return nil
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "$"):
            true
        default: false
        }
    }

    static func skipSpace(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var at = start
        while at < bytes.count {
            switch bytes[at] {
            case 0x20, 0x09, 0x0A, 0x0D: at += 1
            default: return at
            }
        }
        return at
    }
}
