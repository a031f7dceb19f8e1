/// The kinds of resource the pay-per-use API charges for, one per line of its price list.
///
/// The raw values are what `/metrics` (`twfeed_api_resources_total{kind}`) and the JSON
/// output say, so they are part of the contract: renaming a case must not change them.
/// Kept apart from the emulator's `EmulatorResourceKind` on purpose: two readings of the API's billing, so one's mistake shows.
package enum BillableKind: String, CaseIterable, Sendable, Hashable {
    /// A post returned by a read (timelines, lookups, `includes.tweets`).
    case postRead = "post_read"
    /// A post returned by the user's own posts or mentions when the user owns the app:
    /// a fifth of the normal read price, so the ledger must tell them apart.
    case ownedRead = "owned_read"
    /// A user returned by a read (`users/me`, `includes.users`, user lookups).
    case userRead = "user_read"
    /// A successful post without a URL that is not a summoned reply.
    case postCreate = "post_create"
    /// A successful post whose text holds anything twitter-text would link: over thirteen
    /// times the plain price, which is why `twfeed post --dry-run` shows it before queueing.
    case postCreateWithURL = "post_create_url"
    /// A reply to an author who mentioned or quoted the user.
    case postCreateSummoned = "post_create_summoned"
    /// A post of the account's deleted (`DELETE /2/tweets/:id`, v1.1 `statuses/destroy`).
    case postDelete = "post_delete"
    /// A photo uploaded (`POST /2/media/upload`). X publishes no price for it: each upload
    /// is recorded as made, at 0 unless `api.prices.mediaUpload` says otherwise.
    case mediaUpload = "media_upload"

    /// The key under `api.prices` in the config file that overrides this kind's price.
    package var configName: String {
        switch self {
        case .postRead: "postRead"
        case .ownedRead: "ownedRead"
        case .userRead: "userRead"
        case .postCreate: "postCreate"
        case .postCreateWithURL: "postCreateWithURL"
        case .postCreateSummoned: "postCreateSummoned"
        case .postDelete: "postDelete"
        case .mediaUpload: "mediaUpload"
        }
    }

    /// Whether the API's monthly usage cap (which counts post reads) stops it. Posting is
    /// charged and capped separately, so a capped account can still post.
    package var isRead: Bool {
        switch self {
        case .postRead, .ownedRead, .userRead: true
        case .postCreate, .postCreateWithURL, .postCreateSummoned, .postDelete, .mediaUpload: false
        }
    }
}
