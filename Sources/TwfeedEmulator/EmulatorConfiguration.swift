import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The three timelines twfeed follows.
public enum EmulatorFeed: String, Sendable, CaseIterable {
    case home, mentions, retweets
}

/// Which API the client speaks: X API v2 (`/2/...`) or the legacy Twitter API v1.1 (`/1.1/...`).
/// They differ in paging, payload shape, error bodies, rate limits and how far back a feed reaches.
public enum EmulatorDialect: String, Sendable, CaseIterable {
    case v2
    case v1_1 = "v1.1"
}

/// The order in which v2 `reposts_of_me` lists the account's reposted posts. The API
/// does not document it; v1.1's `retweets_of_me` lists by post id. A client must find an
/// old post reposted today whatever the order, so the emulator's default is the order
/// that helps least: by post id, an old post reposted today deep in the list.
public enum EmulatorRepostsOrder: String, Sendable, CaseIterable {
    /// Newest post first, as v1.1 lists: an old post reposted today sits below every newer one.
    case byPostID = "post-id"
    /// The most recently reposted first (an activity list ordered by the activity).
    case byLastRepost = "last-repost"
}

/// An OAuth 1.0a consumer and access token pair. The property names match twfeed's
/// credentials file, so `JSONEncoder` output can be handed to twfeed as-is.
public struct EmulatorCredentials: Sendable, Codable, Equatable {
    public var consumerKey: String
    public var consumerSecret: String
    public var accessToken: String
    public var accessTokenSecret: String

    public init(consumerKey: String, consumerSecret: String, accessToken: String, accessTokenSecret: String) {
        self.consumerKey = consumerKey
        self.consumerSecret = consumerSecret
        self.accessToken = accessToken
        self.accessTokenSecret = accessTokenSecret
    }

    /// Fixed, published values: the emulator is a local stand-in, and users and docs need
    /// to know them. They open nothing anywhere but the emulator.
    public static let demo = EmulatorCredentials(
        consumerKey: "twfeed-demo-consumer-key",
        consumerSecret: "twfeed-demo-consumer-secret",
        accessToken: "1700000000000000001-twfeeddemoaccesstoken",
        accessTokenSecret: "twfeed-demo-access-token-secret"
    )
}

/// How an `Emulator` listens and what it serves.
public struct EmulatorConfiguration: Sendable {
    /// Address to bind: 127.0.0.1, ::1 or localhost (the executable refuses others unless asked).
    public var host = "127.0.0.1"
    /// 0 picks an ephemeral port; read `Emulator.port` after `start()`.
    public var port = 0
    /// The one consumer and access token the API accepts (plus tokens issued by the PIN flow).
    public var credentials: EmulatorCredentials = .demo
    /// How many tweets each feed holds at start (the dialects' reach limits still apply).
    public var tweetsPerFeed = 200
    /// Length of the fixed rate-limit windows; tests shorten it to watch a window reset.
    public var rateLimitWindowSeconds = 900
    /// How far an OAuth timestamp may be from the emulator's clock; 0 turns the check off.
    public var timestampToleranceSeconds = 300
    /// When set, a timer adds one tweet to home and one to mentions at this interval,
    /// so a running daemon has something new to fetch.
    public var newTweetIntervalSeconds: Double? = nil
    /// Seeds users, texts and ids: the same seed gives the same data (timestamps are
    /// placed relative to the start time, so they move with the clock).
    public var seed: UInt64 = 1
    /// Accounts added to the ~50 of the built-in corpus (`user1`, `user2`, …; two thirds
    /// of them followed), for a home feed with many distinct authors (1,000 and more:
    /// the image cache benchmark). 0 keeps the corpus alone.
    public var extraUsers = 0
    /// How long the API refuses a status whose text repeats one of the account's own
    /// tweets: the real duplicate check covers recent posts only (a window, not forever),
    /// so it cannot be what makes a retry safe. 0 turns the check off. Settable later
    /// with `Emulator.setDuplicateWindow(seconds:)` or `POST /_emulator/duplicate-window`.
    public var duplicateWindowSeconds: Double = 86_400
    /// How far the emulator's clock is ahead of this machine's (negative: behind). It moves
    /// everything the server's clock decides: the `Date` header, `x-rate-limit-reset`,
    /// tweet times, the duplicate window and the OAuth timestamp check (a skew beyond
    /// `timestampToleranceSeconds` gets 401 code 135, as on the real API). Settable later
    /// with `Emulator.setClockSkew(seconds:)` or `POST /_emulator/clock`.
    public var clockSkewSeconds: Double = 0
    /// This machine's clock as the emulator reads it (the skew is added on top). Tests
    /// that compare two emulators give both the same fixed clock, so their seeded data
    /// cannot differ by the second in which each was made.
    public var clock: @Sendable () -> Date = { Date() }
    /// How the API bills this account (the pay-per-use rates by default) and when it
    /// refuses for money or access; see `EmulatorBillingConfiguration`. The defaults never
    /// refuse, so a client that ignores billing sees no difference but the bill.
    public var billing = EmulatorBillingConfiguration()
    /// How v2 `reposts_of_me` orders its list (undocumented): by post id by default.
    public var repostsOrder: EmulatorRepostsOrder = .byPostID
    /// The names v2 answers give a post's fields: `.tweet` (`referenced_tweets`, …, the
    /// default) or `.post` (`referenced_posts`, …, X's OpenAPI document of August 2026).
    /// Settable later with `Emulator.setVocabulary(_:)` or `POST /_emulator/vocabulary`.
    public var vocabulary: EmulatorVocabulary = .tweet
    /// `expires_after_secs` of a photo uploaded with `POST /2/media/upload`: its id is
    /// refused (400) by `POST /2/media/metadata` and `POST /2/tweets` from then on. The
    /// API's is 86,400; a test shortens it to see a client upload again after expiry.
    /// Settable later with `Emulator.setMediaExpiry(seconds:)` or `POST /_emulator/media`.
    public var mediaExpirySeconds = MediaUploads.defaultExpirySeconds
    /// How `DELETE /2/tweets/:id` answers for a post that is unknown or already deleted
    /// (`EmulatorGoneDeletion`; the docs' literal reading by default).
    public var goneDeletion: EmulatorGoneDeletion = .notDeleted

    public init() {}
}

/// How `DELETE /2/tweets/:id` answers for a post that does not exist or is already gone.
/// X documents only the success (`{"data":{"deleted":true}}`) and says `deleted`
/// "indicates whether the specified Tweet has been deleted as a result of this request":
/// read literally, a request that deletes nothing answers 200 with `deleted: false`.
/// The other reading, a 404 problem, is one setting away, so a client can be tested
/// against both (it must take either as "the post is gone").
public enum EmulatorGoneDeletion: String, Sendable, CaseIterable {
    /// 200 `{"data":{"deleted":false}}` (the default).
    case notDeleted = "deleted-false"
    /// 404 problem `Not Found Error`, as a lookup of the id would report it.
    case notFound = "not-found"
}

/// Why `Emulator.start()` failed.
public enum EmulatorError: Error, CustomStringConvertible, Sendable {
    case invalidHost(String)
    case socket(operation: String, errno: Int32)
    case alreadyStarted

    public var description: String {
        switch self {
        case .invalidHost(let host): "not a numeric address or localhost: \(host)"
        case .socket(let operation, let code): "\(operation) failed: \(String(cString: strerror(code)))"
        case .alreadyStarted: "the emulator was already started"
        }
    }
}
