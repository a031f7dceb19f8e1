/// How a post with a given text reaches home while being in no timeline itself
/// (`Emulator.addTweet(text:authorName:via:)`): quoted, or reposted, by a followed account.
public enum EmulatedReferenceKind: String, Sendable, CaseIterable {
    case quote, repost
}

/// What `Emulator.addTweet(text:authorName:via:)` made: the quote or repost that joined
/// home, and the post with the given text that it points at.
public struct EmulatedReference: Sendable, Equatable {
    /// The quote or repost at the top of home.
    public let id: String
    /// The post with the given text, in no timeline.
    public let original: String
}
