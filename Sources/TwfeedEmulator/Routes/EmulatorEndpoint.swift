/// The signed API endpoints, by the names rate limits, refusals and the bill use
/// (`Emulator.setRateLimit(_:for:)` takes the raw values).
///
/// One name covers both dialects: `ownPosts` is `GET /2/users/:id/tweets` and
/// `statuses/user_timeline`; `lookup` is `GET /2/tweets`, `GET /2/tweets/:id`,
/// `statuses/lookup` and `statuses/show`; `me` is `GET /2/users/me` and
/// `account/verify_credentials`; `users` is `GET /2/users?ids=` (v2 only); `delete` is
/// `DELETE /2/tweets/:id` and `statuses/destroy/:id`; `mediaUpload` and `mediaMetadata`
/// are `POST /2/media/upload` and `POST /2/media/metadata` (v2 only: v1.1's media upload
/// is retired).
public enum EmulatorEndpoint: String, Sendable, CaseIterable {
    case home, mentions, retweets, post, me, ownPosts, lookup, users, delete, mediaUpload, mediaMetadata

    /// Whether the endpoint answers with posts (what the monthly post-read cap stops).
    var readsPosts: Bool {
        switch self {
        case .home, .mentions, .retweets, .ownPosts, .lookup: true
        case .post, .me, .users, .delete, .mediaUpload, .mediaMetadata: false
        }
    }
}
