import TwfeedCore

/// The account an archive belongs to, from its `account.js`.
package struct ArchiveAccount: Sendable, Equatable {
    package var id: UserID
    package var username: String
    package var displayName: String?

    package init(id: UserID, username: String, displayName: String? = nil) {
        self.id = id
        self.username = username
        self.displayName = displayName
    }
}
