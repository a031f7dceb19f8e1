/// A tweet or user id. Ids exceed 2^53, so they are never floating point anywhere:
/// a 64-bit integer in memory and SQLite (so they sort numerically), a string in JSON.
package struct TweetID: Hashable, Comparable, Sendable, CustomStringConvertible, Codable {
    package let rawValue: Int64

    package init(_ rawValue: Int64) { self.rawValue = rawValue }

    /// Parses a decimal id; nil for anything that is not a positive 64-bit integer.
    package init?(_ string: String) {
        guard let value = Int64(string), value > 0 else { return nil }
        rawValue = value
    }

    package var description: String { String(rawValue) }

    package static func < (lhs: TweetID, rhs: TweetID) -> Bool { lhs.rawValue < rhs.rawValue }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let string = try container.decode(String.self)
        guard let id = TweetID(string) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an id: \(string)")
        }
        self = id
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
