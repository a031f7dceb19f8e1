/// Whoever wrote a tweet. Authors are stored apart from tweets and need not be a user
/// of twfeed.
package struct Author: Sendable, Equatable {
    package var id: UserID
    package var username: String
    package var name: String
    package var profileImageURL: String?

    package init(id: UserID, username: String, name: String, profileImageURL: String? = nil) {
        self.id = id
        self.username = username
        self.name = name
        self.profileImageURL = profileImageURL
    }
}
