/// A user's id: an author's, or the signed-in account's. Its own type, not a `TweetID`
/// nor a bare integer, so a user id can never be passed where a tweet's is expected and
/// "no account yet" is an optional, not a 0. The one 0 is `unknown`: a post's author the
/// store was not told (an archive's like), which no user row has.
package struct UserID: SnowflakeID {
    package let rawValue: Int64

    package init(_ rawValue: Int64) { self.rawValue = rawValue }
}

extension UserID {
    /// The author of a post stored before anyone said who wrote it: an archive's like
    /// names the post, not its author. X gives no user the id 0, and no `user` row has it,
    /// so every reader shows such a post without an author (`"author": null`) until the
    /// post is fetched and its row takes the real author.
    package static let unknown = UserID(0)
}
