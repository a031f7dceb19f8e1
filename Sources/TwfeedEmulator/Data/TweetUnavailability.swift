/// Why the API will not give a post (`Emulator.deleteTweet(_:reason:)`): how lookups and
/// references report it differs.
///
/// | reason | v2 partial error (`title`: `detail`) | v1.1 `statuses/show` |
/// |---|---|---|
/// | deleted | Not Found Error: Could not find tweet with ids: [ID]. | 404 code 144 |
/// | protected | Authorization Error: Sorry, you are not authorized to see the Tweet with ids: [ID]. | 403 code 179 |
/// | suspended | Forbidden: User has been suspended: [AUTHOR ID]. | 403 code 63 |
///
/// v1.1 `statuses/lookup` leaves each out (`map=true`: null) whatever the reason.
public enum TweetUnavailability: String, Sendable, CaseIterable {
    case deleted, protected, suspended
}

/// A conversation `Emulator.addReplyChain` made: the post that joined the feed, and its
/// ancestors from the parent up to the root.
public struct EmulatedReplyChain: Sendable, Equatable {
    public let id: String
    public let ancestors: [String]
}
