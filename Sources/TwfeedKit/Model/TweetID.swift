/// A tweet or user id. Ids exceed 2^53, so they are never floating point anywhere:
/// a 64-bit integer in memory and SQLite (so they sort numerically), a string in JSON.
public struct TweetID: Hashable, Comparable, Sendable, CustomStringConvertible, Codable {
    public let rawValue: Int64

    public init(_ rawValue: Int64) { self.rawValue = rawValue }

    /// Parses a decimal id; nil for anything that is not a positive 64-bit integer.
    public init?(_ string: String) {
        guard let value = Int64(string), value > 0 else { return nil }
        rawValue = value
    }

    public var description: String { String(rawValue) }

    public static func < (lhs: TweetID, rhs: TweetID) -> Bool { lhs.rawValue < rhs.rawValue }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let string = try container.decode(String.self)
        guard let id = TweetID(string) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an id: \(string)")
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
