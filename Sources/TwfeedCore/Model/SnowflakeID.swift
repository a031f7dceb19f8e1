import Foundation

/// The X API's 64-bit ids (tweets and users alike): positive integers that exceed 2^53,
/// so never floating point: an `Int64` in memory and SQLite, a decimal string in JSON.
/// `TweetID` and `UserID` share this behaviour and stay distinct types.
package protocol SnowflakeID: Hashable, Comparable, Sendable, CustomStringConvertible, Codable {
    var rawValue: Int64 { get }
    init(_ rawValue: Int64)
}

extension SnowflakeID {
    /// Parses a decimal id; nil for anything that is not a positive 64-bit integer.
    package init?(_ string: String) {
        guard let value = Int64(string), value > 0 else { return nil }
        self.init(value)
    }

    package var description: String { String(rawValue) }

    package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let string = try container.decode(String.self)
        guard let id = Self(string) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an id: \(string)")
        }
        self = id
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

extension SnowflakeID {
    /// When the id was made, by the server's clock: a snowflake keeps the milliseconds since
    /// 2010-11-04T01:42:54.657Z in its bits above the lowest 22. What a post whose time is
    /// not given (an archive's like) is dated by.
    package var snowflakeDate: Date {
        let milliseconds = Double(rawValue >> 22) + 1_288_834_974_657
        return Date(timeIntervalSince1970: milliseconds / 1000)
    }
}
