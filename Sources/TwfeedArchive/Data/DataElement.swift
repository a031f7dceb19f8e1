import Foundation
import TwfeedCore

/// One element of a data file's array, decoded alone.
struct DataElement {
    /// The element's object, or the object inside its one-key wrapper (`{"tweet": {...}}`).
    var object: JSONValue
    /// That object's bytes as the archive wrote them: a post's `rawJSON`.
    var raw: Range<Int>

    /// Decodes the element at `range`, unwrapping `wrapper` when the element is that one key
    /// (`required`: the element must be so wrapped, as `like.js`'s and `note-tweet.js`'s are).
    static func decode(
        _ data: Data,
        _ range: Range<Int>,
        wrapper: String,
        required: Bool,
        file: String,
        index: Int
    ) throws(ArchiveError) -> DataElement {
        let value: JSONValue
        do {
            value = try JSONValue.parse(data[range])
        } catch {
            throw ArchiveError(.badData, file: file, "entry \(index + 1) is not JSON (\(error))")
        }
        guard case .object(let members) = value else { throw ArchiveError(.badData, file: file, "entry \(index + 1) is not an object") }
        if members.count == 1, let inner = members[wrapper] {
            guard case .object = inner else {
                throw ArchiveError(.badData, file: file, "entry \(index + 1): \"\(wrapper)\" is \(inner.typeName), not an object")
            }
            return DataElement(object: inner, raw: innerRange(data, range) ?? range)
        }
        if required { throw ArchiveError(.badData, file: file, "entry \(index + 1) is not {\"\(wrapper)\": {...}}") }
        return DataElement(object: value, raw: range)
    }

    /// What a post's object is read for: ids, time, text, replies (and whom they answer) and
    /// quotes, links, media.
    static let postMembers: [String: SelectiveJSON.Wanted] = [
        "id_str": .whole, "id": .whole, "created_at": .whole, "full_text": .whole, "text": .whole,
        "in_reply_to_status_id_str": .whole, "in_reply_to_user_id_str": .whole,
        "in_reply_to_screen_name": .whole, "quoted_status_id_str": .whole,
        "entities": .members(["urls": .whole, "media": .whole]), "extended_entities": .whole,
    ]

    /// A post's element: the wrapper's post, or a bare post's members.
    static let postElement = postMembers.merging(["tweet": .members(postMembers)]) { first, _ in first }

    /// A post, `{"tweet": {...}}` or bare: only `postMembers` built, the rest of its
    /// syntax checked (`SelectiveJSON`). Bad JSON is parsed again whole, for the message.
    static func decodePost(_ data: Data, _ range: Range<Int>, file: String, index: Int) throws(ArchiveError) -> DataElement {
        let read = data.withUnsafeBytes { raw in
            var reader = SelectiveJSON(raw.bindMemory(to: UInt8.self))
            return reader.object(at: range.lowerBound, keeping: postElement).flatMap { $0.end == range.upperBound ? $0 : nil }
        }
        guard let read else { return try decode(data, range, wrapper: "tweet", required: false, file: file, index: index) }
        if read.count == 1, let inner = read.members["tweet"], let innerRange = read.ranges["tweet"] {
            guard case .object = inner else {
                throw ArchiveError(.badData, file: file, "entry \(index + 1): \"tweet\" is \(inner.typeName), not an object")
            }
            return DataElement(object: inner, raw: innerRange)
        }
        return DataElement(object: .object(read.members), raw: range)
    }

    /// The byte range of the value of a one-key object, `{ "key" : VALUE }`: from the
    /// first byte after the colon to the last before the closing brace (the element was
    /// parsed whole already, so no second bracket scan is needed).
    private static func innerRange(_ data: Data, _ range: Range<Int>) -> Range<Int>? {
        data.withUnsafeBytes { raw -> Range<Int>? in
            let bytes = raw.bindMemory(to: UInt8.self)
            var at = DataFile.skipSpace(bytes, from: range.lowerBound + 1)
            guard at < range.upperBound, bytes[at] == UInt8(ascii: "\"") else { return nil }
            at += 1
            while at < range.upperBound, bytes[at] != UInt8(ascii: "\"") { at += bytes[at] == UInt8(ascii: "\\") ? 2 : 1 }
            at = DataFile.skipSpace(bytes, from: at + 1)
            guard at < range.upperBound, bytes[at] == UInt8(ascii: ":") else { return nil }
            at = DataFile.skipSpace(bytes, from: at + 1)
            var end = range.upperBound - 1
            while end > at, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[end - 1]) { end -= 1 }
            return at < end ? at..<end : nil
        }
    }

    /// The object's text as the archive wrote it.
    func rawText(_ data: Data) -> String {
        // Through the bytes: `String(decoding:)` on a `Data` slice takes a slow generic path.
        data.withUnsafeBytes { String(decoding: UnsafeRawBufferPointer(rebasing: $0[raw]), as: UTF8.self) }
    }
}

extension JSONValue {
    /// A member that must be a string (the archive writes every number as one).
    func text(_ key: String) -> String? { self[key]?.string }
}
