/// What the pay-per-use API charges for: a resource read, a post created or deleted, a
/// photo uploaded. The raw
/// values are the names in `GET /_emulator/bill` (and twfeed's `kind` label).
/// Kept apart from TwfeedBilling's `BillableKind` on purpose: two readings of the API's billing, so one's mistake shows.
public enum EmulatorResourceKind: String, Sendable, CaseIterable {
    /// A post returned by any read (home, reposts_of_me, lookups, includes, embedded statuses).
    case postRead = "post_read"
    /// A post of the account's own mentions or own posts, read by the account when it owns the app.
    case ownedRead = "owned_read"
    /// A user object returned.
    case userRead = "user_read"
    /// A post created, without a URL and not a summoned reply.
    case postCreate = "post_create"
    /// A post created whose text holds a URL (anything twitter-text would link).
    case postCreateWithURL = "post_create_url"
    /// A reply, without a URL, to a post whose author mentioned or quoted the account.
    case postCreateSummoned = "post_create_summoned"
    /// A post deleted (`DELETE /2/tweets/:id`, v1.1 `statuses/destroy`).
    case postDelete = "post_delete"
    /// A photo uploaded (`POST /2/media/upload`): X does not publish its price, so it is
    /// free unless a test sets one; every upload is counted all the same.
    case mediaUpload = "media_upload"

    /// Counted against the monthly post-read cap.
    var isPostRead: Bool { self == .postRead || self == .ownedRead }

    /// The key in `EmulatorPrices` and in the `prices` object of `POST /_emulator/billing`
    /// (twfeed's `api.prices` spells them the same way).
    var priceKey: String {
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
}
