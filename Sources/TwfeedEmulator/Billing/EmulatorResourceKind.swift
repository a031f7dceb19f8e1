/// What the pay-per-use API charges for: a resource read or a post created. The raw
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
        }
    }
}
