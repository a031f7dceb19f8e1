/// A user's id: an author's, or the signed-in account's. Its own type, not a `TweetID`
/// nor a bare integer, so a user id can never be passed where a tweet's is expected and
/// "no account yet" is an optional, not a 0.
package struct UserID: SnowflakeID {
    package let rawValue: Int64

    package init(_ rawValue: Int64) { self.rawValue = rawValue }
}
