import Mustache

/// `/tweet/ID`: the posts above a post up to the root (root first), the post, and the
/// replies stored below it.
struct ConversationModel {
    /// A post above: shown, or only its id when it is not stored.
    struct Ancestor {
        var stored: RenderedTweet?
        var missing: String?
        /// What the API said when it could not give it.
        var unavailable: String?
    }

    var header: HeaderModel
    var ancestors: [Ancestor]
    var focus: RenderedTweet
    var replies: [RenderedTweet]
    /// Whether the top shown is not the root (deeper than `Conversation.maxDepth`).
    var message: String?
}

extension ConversationModel: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "title": "conversation"
        case "header": header
        case "csrf": header.csrf
        case "ancestors": ancestors
        case "focus": focus
        case "replies": replies
        case "hasReplies": !replies.isEmpty
        case "message": message
        default: nil
        }
    }
}

extension ConversationModel.Ancestor: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "stored": stored
        case "missing": missing
        case "unavailable": unavailable
        default: nil
        }
    }
}
