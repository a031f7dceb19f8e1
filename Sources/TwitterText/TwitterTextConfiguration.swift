import Foundation

/// The weighting rules twitter-text applies to a tweet, in the shape of its published
/// `config-v*.json` files so a new upstream configuration can be loaded without a code change.
/// `v2` and `v3` are built in because the product must not depend on `../shared` at run time.
public struct TwitterTextConfiguration: Sendable, Equatable, Decodable {
    /// A band of code points that weigh `weight` instead of `defaultWeight`.
    public struct WeightRange: Sendable, Equatable, Decodable {
        public let start: Int
        public let end: Int
        public let weight: Int
    }

    public let version: Int
    public let maxWeightedTweetLength: Int
    public let scale: Int
    public let defaultWeight: Int
    public let transformedURLLength: Int
    /// Absent in v2's JSON; absence means "off", as in twitter-text.
    public let emojiParsingEnabled: Bool
    public let ranges: [WeightRange]

    public init(
        version: Int,
        maxWeightedTweetLength: Int,
        scale: Int,
        defaultWeight: Int,
        transformedURLLength: Int,
        emojiParsingEnabled: Bool,
        ranges: [WeightRange]
    ) {
        // The counter divides by both; a zero would crash the caller instead of refusing.
        precondition(scale > 0 && maxWeightedTweetLength > 0, "scale and maxWeightedTweetLength must be positive")
        self.version = version
        self.maxWeightedTweetLength = maxWeightedTweetLength
        self.scale = scale
        self.defaultWeight = defaultWeight
        self.transformedURLLength = transformedURLLength
        self.emojiParsingEnabled = emojiParsingEnabled
        self.ranges = ranges
    }

    /// Reads a twitter-text `config-v*.json` file.
    public init(contentsOf url: URL) throws {
        let data = try Data(contentsOf: url)
        self = try JSONDecoder().decode(TwitterTextConfiguration.self, from: data)
    }

    private enum CodingKeys: String, CodingKey {
        case version, maxWeightedTweetLength, scale, defaultWeight, transformedURLLength, emojiParsingEnabled, ranges
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(Int.self, forKey: .version)
        maxWeightedTweetLength = try container.decode(Int.self, forKey: .maxWeightedTweetLength)
        scale = try container.decode(Int.self, forKey: .scale)
        defaultWeight = try container.decode(Int.self, forKey: .defaultWeight)
        transformedURLLength = try container.decode(Int.self, forKey: .transformedURLLength)
        emojiParsingEnabled = try container.decodeIfPresent(Bool.self, forKey: .emojiParsingEnabled) ?? false
        ranges = try container.decode([WeightRange].self, forKey: .ranges)
        // A file is outside input: reject it here rather than trap in the counter.
        guard scale > 0, maxWeightedTweetLength > 0 else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "scale and maxWeightedTweetLength must be positive"
                )
            )
        }
    }

    /// Latin-1-ish, general punctuation and the like weigh 1; everything else weighs 2.
    private static let standardRanges: [WeightRange] = [
        WeightRange(start: 0, end: 4351, weight: 100),
        WeightRange(start: 8192, end: 8205, weight: 100),
        WeightRange(start: 8208, end: 8223, weight: 100),
        WeightRange(start: 8242, end: 8247, weight: 100),
    ]

    /// twitter-text `config-v2.json`: every code point of an emoji sequence is weighed.
    public static let v2 = TwitterTextConfiguration(
        version: 2,
        maxWeightedTweetLength: 280,
        scale: 100,
        defaultWeight: 200,
        transformedURLLength: 23,
        emojiParsingEnabled: false,
        ranges: standardRanges
    )

    /// twitter-text `config-v3.json`, what the API applies today: an emoji sequence weighs 2.
    public static let v3 = TwitterTextConfiguration(
        version: 3,
        maxWeightedTweetLength: 280,
        scale: 100,
        defaultWeight: 200,
        transformedURLLength: 23,
        emojiParsingEnabled: true,
        ranges: standardRanges
    )
}
