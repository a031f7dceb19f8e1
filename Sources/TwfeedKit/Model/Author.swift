/// Whoever wrote a tweet. Authors are stored apart from tweets and need not be a user
/// of twfeed.
public struct Author: Sendable, Equatable {
    public var id: TweetID
    public var username: String
    public var name: String
    public var profileImageURL: String?

    public init(id: TweetID, username: String, name: String, profileImageURL: String? = nil) {
        self.id = id
        self.username = username
        self.name = name
        self.profileImageURL = profileImageURL
    }
}
