/// A tweet's id. Ids exceed 2^53, so they are never floating point anywhere: a 64-bit
/// integer in memory and SQLite (so they sort numerically), a string in JSON. Ids are
/// the server's clock (a newer tweet has a larger id), which is why they order.
package struct TweetID: SnowflakeID {
    package let rawValue: Int64

    package init(_ rawValue: Int64) { self.rawValue = rawValue }
}
