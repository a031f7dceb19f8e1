/// Whom a reply answers, as the reply's own answer names them: what shows "replying to
/// @x" while the parent itself is not stored (deleted, protected, not fetched yet).
/// Never read from the text: only from fields the API gives for it.
package struct RepliedUser: Sendable, Equatable {
    /// The user's id: v2 `in_reply_to_user_id`, v1.1 `in_reply_to_user_id_str`; nil when
    /// the answer did not say, and on a post read back from the store (which keeps the
    /// handle only).
    package var id: UserID?
    /// The handle the answer gives for that user itself: v1.1's (and the archive's)
    /// `in_reply_to_screen_name`, v2's `includes.users` entry of `in_reply_to_user_id`.
    package var username: String?
    /// The handle of the post's own mention of that user (v2 `entities.mentions`, matched
    /// by id): the name the text was written with, so a stored user of that id, which may
    /// be newer, comes first (`AppDatabase.repliedUsername`).
    package var mentioned: String?

    /// Nil when the answer says nothing of the user: no id, no handle.
    package init?(id: UserID? = nil, username: String? = nil, mentioned: String? = nil) {
        guard id != nil || username != nil || mentioned != nil else { return nil }
        self.id = id
        self.username = username
        self.mentioned = mentioned
    }

    /// The handle to show when nothing better is known: the user's own, else the mention's.
    package var handle: String? { username ?? mentioned }
}
