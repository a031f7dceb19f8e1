import Foundation
import Synchronization

/// A local stand-in for the X API, in both dialects (v2 and legacy v1.1), on 127.0.0.1.
///
/// It verifies OAuth 1.0a HMAC-SHA1 signatures, keeps the real per-endpoint rate limits,
/// serves seeded, deterministic timelines with the payload quirks clients must handle
/// (ids above 2^53, HTML-escaped text, retweets, quotes, replies, short pages), accepts
/// posts, runs the PIN sign-in flow, and can inject faults. twfeed's tests and demo run
/// the real daemon against it; users try twfeed with it before they have API keys.
///
/// ```swift
/// let emulator = Emulator(configuration: EmulatorConfiguration())
/// try emulator.start()
/// defer { emulator.stop() }
/// // point a client at emulator.baseURL with EmulatorCredentials.demo
/// ```
public final class Emulator: Sendable {
    /// The account every accepted token belongs to.
    public static let accountUserID = String(TweetStore.accountID)
    public static let accountUsername = TweetStore.accountUsername

    public let configuration: EmulatorConfiguration
    let core: EmulatorCore
    private let server: HTTPServer

    /// Seeds the data (deterministic for `configuration.seed`); call `start()` to serve.
    public init(configuration: EmulatorConfiguration = EmulatorConfiguration()) {
        self.configuration = configuration
        let core = EmulatorCore(configuration: configuration)
        self.core = core
        server = HTTPServer(handler: { request in core.handle(request) })
    }

    /// An emulator dropped without `stop()` still releases its port and threads.
    deinit { server.stop() }

    /// Binds `host:port` and serves on background threads until `stop()`. Call once.
    public func start() throws {
        let port = try server.start(host: configuration.host, port: configuration.port)
        core.state.withLock { $0.authority = Self.urlHost(configuration.host) + ":\(port)" }
        if let interval = configuration.newTweetIntervalSeconds, interval > 0 {
            let lifecycle = server.lifecycle
            let core = core
            lifecycle.enter()
            Thread {
                while !lifecycle.wait(seconds: interval) {
                    _ = core.addTweets(to: .home, count: 1)
                    _ = core.addTweets(to: .mentions, count: 1)
                }
                lifecycle.leave()
            }.start()
        }
    }

    /// The bound port (0 before `start()`).
    public var port: Int { server.port }

    /// `http://127.0.0.1:PORT`, without a version path (`/2/...`, `/1.1/...` and
    /// `/oauth/...` go after it).
    public var baseURL: String { "http://\(Self.urlHost(configuration.host)):\(port)" }

    /// Closes the listener and every open connection, cuts short delayed answers, and
    /// returns once the server's threads are done (within a few seconds at worst).
    public func stop() { server.stop() }

    /// Adds `count` new tweets at the top of `feed` (ids above every existing one) and
    /// returns the ids that joined it, newest first. New mentions by followed accounts
    /// also join home; a new retweeted tweet of mine is also in home.
    @discardableResult
    public func addTweets(to feed: EmulatorFeed, count: Int) -> [String] {
        core.addTweets(to: feed, count: count)
    }

    /// Adds one tweet whose text is exactly `text` at the top of `feed` (its id above
    /// every existing one) and returns its id. It is served as every tweet is: v2 `text`
    /// and v1.1 `full_text`/`text` HTML-escape `&`, `<` and `>` as the real API does, so
    /// a client that unescapes them gets `text` back byte for byte.
    ///
    /// With `authorName`, its author is a followed user with that display name, made on
    /// first use with the username `hostile_1`, `hostile_2`, ... (the same name again
    /// gives the same user); without, a generated user. In mentions the tweet is in home
    /// too when its author is followed. In retweets it is one of the account's own
    /// tweets, retweeted by another user (also in home), and `authorName` is ignored.
    /// `tweet(_:)` tells the author's username.
    @discardableResult
    public func addTweet(to feed: EmulatorFeed, text: String, authorName: String? = nil) -> String {
        core.addTweet(to: feed, text: text, authorName: authorName)
    }

    /// Adds a post whose text is exactly `text` (served escaped, as `addTweet(to:text:)`
    /// says) that is in no timeline, and at the top of home a followed account's quote of
    /// it (`.quote`) or repost of it (`.repost`): what a client sees of the post only
    /// inside another. With `authorName` its author is that user (as `addTweet` makes
    /// them); without, an account the user does not follow.
    @discardableResult
    public func addTweet(text: String, authorName: String? = nil, via kind: EmulatedReferenceKind) -> EmulatedReference {
        core.addTweet(text: text, authorName: authorName, via: kind)
    }

    /// The ids a perfect client of `dialect` can collect from `feed`, newest first: the
    /// dialect's reach (v2 home 3,200, otherwise 800), without deleted tweets.
    public func groundTruth(_ feed: EmulatorFeed, dialect: EmulatorDialect) -> [String] {
        core.groundTruth(feed, dialect: dialect)
    }

    /// Every visible tweet id of `feed`, newest first, reachable or not.
    public func allTweetIDs(_ feed: EmulatorFeed) -> [String] {
        core.state.withLock { $0.store.allVisible(feed) }.map { String($0) }
    }

    /// A stored tweet (full unescaped text, author, references), or nil.
    public func tweet(_ id: String) -> PublicTweet? {
        guard let number = UInt64(id) else { return nil }
        return core.state.withLock { $0.store.publicTweet(number) }
    }

    // MARK: What a tweet points at

    /// From now on (`leaveOut` true) or no longer, v2 lookups by id (`GET /2/tweets?ids=`,
    /// `GET /2/tweets/:id`) leave the user out of `includes.users`, though its posts are
    /// in the answer and `author_id` is expanded: an answer that omits a user, which a
    /// client must look up (`GET /2/users?ids=` still answers it). Not billed, as nothing
    /// left out is. v1.1 embeds the user in each status: unchanged. False for an unknown user.
    @discardableResult
    public func leaveUserOutOfLookups(_ userID: String, _ leaveOut: Bool = true) -> Bool {
        guard let id = UInt64(userID) else { return false }
        return core.state.withLock { $0.leaveOutOfLookups(id, leaveOut) }
    }

    /// A conversation of `depth` ancestors (1-50) between accounts the user does not
    /// follow, none of them in any timeline, answered by a new post at the top of `feed`:
    /// in home a followed account's reply, in mentions a reply that also mentions the
    /// account. A client sees only the new post's `in_reply_to` id and must look the rest
    /// up by id. Nil for the retweets feed or a depth out of range.
    @discardableResult
    public func addReplyChain(to feed: EmulatorFeed, depth: Int) -> EmulatedReplyChain? {
        guard (1...50).contains(depth) else { return nil }
        return core.addReplyChain(to: feed, depth: depth)
    }

    /// The post is gone from now on, for `reason`: timelines drop it, v2 lookups and
    /// references report it in partial `errors` (`TweetUnavailability` lists how), v1.1
    /// `statuses/lookup` leaves it out (null under `map=true`), `statuses/show` refuses
    /// it. Its media stay on the image host. False for an unknown id.
    @discardableResult
    public func deleteTweet(_ id: String, reason: TweetUnavailability = .deleted) -> Bool {
        guard let number = UInt64(id) else { return false }
        return core.state.withLock { $0.store.makeUnavailable(number, reason: reason) }
    }

    /// The bytes the image host serves at a media picture's path (`PublicMedia.path`),
    /// or nil for a path that is none.
    public func mediaBytes(path: String) -> [UInt8]? {
        let parts = path.split(separator: "/").map(String.init)
        guard let id = EmulatedMedia.id(inPath: parts),
            let (media, upload) = core.state.withLock({ state in state.store.mediaByID[id].map { ($0, state.uploads.byID[id]) } }),
            media.path == path
        else {
            return nil
        }
        return upload?.bytes ?? core.images.mediaBytes(media)
    }

    /// The next `times` requests whose path contains `pathContains` (and, with `method`,
    /// of that method: `POST /2/tweets` posts, `GET /2/tweets` looks up) get `fault`;
    /// without a path, the next API requests (`/2/`, `/1.1/`, `/oauth/`; not profile
    /// images). With `endpoint`, only requests to that endpoint (either dialect): how a
    /// test aims at one step of a post with photos (`.mediaUpload`, `.mediaMetadata`,
    /// `.post`, `.delete`). Faults are used in the order injected.
    public func inject(
        _ fault: Fault,
        times: Int = 1,
        pathContains: String? = nil,
        method: String? = nil,
        endpoint: EmulatorEndpoint? = nil
    ) {
        core.inject(fault, times: times, pathContains: pathContains, method: method, endpoint: endpoint)
    }

    /// Drops every fault not yet used.
    public func clearFaults() {
        core.state.withLock { $0.faults.removeAll() }
    }

    /// How many requests (API, OAuth and images; control routes excluded) had a path
    /// containing `pathContains`.
    public func requestCount(pathContains: String) -> Int {
        core.state.withLock { state in state.records.reduce(0) { $0 + ($1.path.contains(pathContains) ? 1 : 0) } }
    }

    /// Every request received (control routes excluded), oldest first.
    public var requests: [EmulatorRequestRecord] {
        core.state.withLock { $0.records }
    }

    /// Every status accepted by `POST /2/tweets` or `POST /1.1/statuses/update.json`, in order
    /// (including those whose answer an `acceptThenReset` fault swallowed).
    public var postedStatuses: [PostedStatus] {
        core.state.withLock { $0.posted }
    }

    /// Overrides a rate limit per window: an `EmulatorEndpoint` name (`"home"`, `"mentions"`,
    /// `"retweets"`, `"post"`, `"me"`, `"ownPosts"`, `"lookup"`) for both dialects, or e.g.
    /// `"v1.1.home"` for one.
    public func setRateLimit(_ limit: Int, for endpoint: String) {
        core.setRateLimit(limit, for: endpoint)
    }

    // MARK: The server's clock and duplicate window

    /// The emulator's clock (this machine's plus `clockSkewSeconds`): what its `Date`
    /// header, rate-limit resets, tweet times and duplicate window go by.
    public var now: Date { core.now }

    /// How far the emulator's clock is ahead of this machine's (negative: behind).
    public var clockSkewSeconds: Double { core.state.withLock { $0.clockSkewSeconds } }

    /// Sets the server's clock `seconds` ahead of this machine's (negative: behind), from
    /// the next request on; a test moves it forward to let a duplicate window or a
    /// rate-limit window pass without sleeping. Not finite counts as 0.
    public func setClockSkew(seconds: Double) {
        core.state.withLock { $0.clockSkewSeconds = EmulatorState.skew(seconds) }
    }

    /// How long a repeated text is refused as a duplicate (0: never).
    public var duplicateWindowSeconds: Double { core.state.withLock { $0.duplicateWindowSeconds } }

    /// Sets the duplicate window (0 turns the duplicate check off; negative or not finite counts as 0).
    public func setDuplicateWindow(seconds: Double) {
        core.state.withLock { $0.duplicateWindowSeconds = max(0, EmulatorState.finite(seconds)) }
    }

    /// The names v2 answers give a post's fields (`EmulatorConfiguration.vocabulary`).
    public var vocabulary: EmulatorVocabulary { core.state.withLock { $0.vocabulary } }

    /// Answers v2 in `vocabulary` from the next request on: `.post` is the new naming of
    /// X's OpenAPI document of August 2026 (`referenced_posts`, `note_post`,
    /// `includes.posts`, `edit_history_post_ids`, `repost_count`, problem types under
    /// `api.x.com`).
    public func setVocabulary(_ vocabulary: EmulatorVocabulary) {
        core.state.withLock { $0.vocabulary = vocabulary }
    }

    /// Lets the account post over 280 (weighted), up to 25,000, as X Premium does: such
    /// a post keeps its `text` cut and its whole text as `note_tweet` (v2).
    public func setLongPostsAllowed(_ allowed: Bool) {
        core.state.withLock { $0.longPostsAllowed = allowed }
    }

    /// The next `times` API requests that arrive on a connection after its first
    /// `afterRequests` are processed (a post stored, a nonce used up), then the
    /// connection is closed with no answer: a server dropping a kept-alive connection
    /// as the request arrives. Recorded with the fault "close-kept-alive".
    public func dropKeptAliveConnections(afterRequests: Int = 1, times: Int = 1) {
        core.state.withLock {
            $0.keepAliveDropAfter = max(1, afterRequests)
            $0.keepAliveDrops = max(0, times)
        }
    }

    /// The account's own tweets (statuses posted here included), newest first, as the
    /// own-posts timelines serve them.
    public func ownTweetIDs() -> [String] {
        core.state.withLock { $0.store.reachableOwnTweets() }.map { String($0) }
    }

    /// Another user retweets one of the account's OLD tweets now (`id`, or by default the
    /// oldest own original nobody retweeted yet), so it joins retweets-of-me below every
    /// newer tweet's id: v1.1 `retweets_of_me` lists it by its id (under a client's
    /// `since_id`), v2 `reposts_of_me` as `EmulatorConfiguration.repostsOrder` says (by
    /// default by its id too; first with `.byLastRepost`). Its retweet count goes up. Returns the retweeted tweet's id; nil if `id` is not an
    /// existing original of the account's.
    @discardableResult
    public func retweetOldTweet(_ id: String? = nil) -> String? {
        let original: UInt64?? = id.map { UInt64($0) }
        if case .some(nil) = original { return nil }
        return core.state.withLock { state in
            state.store.retweetOld(original ?? nil, now: state.now)
        }.map { String($0) }
    }

    /// The account reposts `count` posts by others now: its newest own posts. The
    /// own-posts timelines list them, and v2 `exclude=retweets` (v1.1 `include_rts=false`)
    /// removes them after the page is cut, so a run of 100 makes the newest page of own
    /// originals empty with a `next_token` (x-api.md: pages can come back empty and go
    /// on). Returns the reposts' ids, oldest first.
    @discardableResult
    public func repostAsAccount(count: Int) -> [String] {
        core.state.withLock { state in state.store.repostAsAccount(count: count, now: state.now) }.map { String($0) }
    }

    /// The PIN the authorize page shows for a request token (nil if unknown or used).
    public func pin(forRequestToken token: String) -> String? {
        core.state.withLock { $0.tokens.pin(token) }
    }

    // MARK: Profile images

    /// Adds `count` originals by `authorID` at the top of home (so that the author's
    /// current profile, picture URL included, is in the next page a client gets).
    /// Returns the new ids, newest first; nil for an unknown user.
    @discardableResult
    public func addTweets(to feed: EmulatorFeed, count: Int, by authorID: String) -> [String]? {
        guard let id = UInt64(authorID) else { return nil }
        return core.addTweets(to: feed, count: count, by: id)
    }

    /// `http://HOST:PORT/profile_images/<id>/<n>_normal.png`: the user's picture URL as the
    /// API reports it now.
    public func profileImageURL(ofUser userID: String) -> String? {
        UInt64(userID).flatMap { core.profileImagePath(ofUser: $0) }.map { baseURL + $0 }
    }

    /// Gives the user a new picture at a new URL (`<n>` goes up, the old URL answers 404),
    /// as when someone uploads a new avatar. Returns the new URL.
    @discardableResult
    public func changeProfileImageURL(ofUser userID: String) -> String? {
        UInt64(userID).flatMap { core.changeProfileImageURL(ofUser: $0) }.map { baseURL + $0 }
    }

    /// Gives the user a new display name, as every answer shows it from now on (the
    /// account itself too: `Emulator.accountUserID`). Returns false for an unknown user.
    @discardableResult
    public func renameUser(_ userID: String, to name: String) -> Bool {
        guard let id = UInt64(userID) else { return false }
        return core.state.withLock { $0.store.rename(id, to: name) }
    }

    /// Replaces the user's picture behind the same URL: a new ETag and Last-Modified, so a
    /// revalidating client gets a 200 with the new bytes. Returns false for an unknown user.
    @discardableResult
    public func changeProfileImageBytes(ofUser userID: String) -> Bool {
        UInt64(userID).map { core.changeProfileImageBytes(ofUser: $0) } ?? false
    }

    /// Serves exactly `bytes` (for every size) as the user's picture behind the same URL:
    /// two users given the same bytes share one picture.
    @discardableResult
    public func setProfileImage(ofUser userID: String, bytes: [UInt8], contentType: String = "image/png") -> Bool {
        UInt64(userID).map { core.changeProfileImageBytes(ofUser: $0, custom: (bytes, contentType)) } ?? false
    }

    /// The bytes the user's picture has now, at a size given by its URL suffix
    /// (`normal`, `bigger`, `mini`, `400x400`, `original`).
    public func profileImageBytes(ofUser userID: String, size: String = "normal") -> [UInt8]? {
        guard let id = UInt64(userID), let size = ProfileImageSize(rawValue: size) else { return nil }
        return core.profileImageBytes(ofUser: id, size: size)
    }

    /// From now on, the user's picture (at every size) gets `image`'s bad answer. The
    /// latest matching rule wins; `clearBadImages()` ends them.
    public func serveBadImage(_ image: BadImage, forUser userID: String) {
        guard let id = UInt64(userID) else { return }
        core.images.serveBad(image, userID: id, pathContains: nil)
    }

    /// From now on, picture paths containing `pathContains` get `image`'s bad answer.
    public func serveBadImage(_ image: BadImage, pathContains: String) {
        core.images.serveBad(image, userID: nil, pathContains: pathContains)
    }

    /// Back to good pictures for everyone.
    public func clearBadImages() {
        core.images.clearBad()
    }

    /// Image body bytes (profile pictures and media) written to sockets so far (a client
    /// that cuts a transfer off stops this growing).
    public var imageBodyBytesSent: Int {
        core.images.bodyBytesSent.load(ordering: .relaxed)
    }

    /// The host as it goes in a URL: `localhost` and the wildcard addresses become
    /// loopback addresses (what a local client can reach), IPv6 gets brackets.
    static func urlHost(_ host: String) -> String {
        switch host {
        case "localhost", "0.0.0.0", "": "127.0.0.1"
        case "::": "[::1]"
        default: host.contains(":") ? "[\(host)]" : host
        }
    }
}
