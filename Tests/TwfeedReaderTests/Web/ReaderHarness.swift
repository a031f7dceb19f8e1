import Foundation
import Logging
import Synchronization
@testable import TwfeedKit
import TwfeedReaderTesting
import TwfeedTesting
@testable import TwfeedCore
@testable import TwfeedStore
@testable import TwfeedReader
@testable import TwfeedStatus

/// A database with a known timeline, an image cache with real pictures, and the web
/// reader serving them, as `twfeed serve` runs it.
final class ReaderHarness: @unchecked Sendable {
    let folder: String
    let database: AppDatabase
    var config: TwfeedConfig
    let sink = MemorySink()

    static let alice = Author(id: UserID(1), username: "alice", name: "Alice Martin", profileImageURL: "https://pbs.twimg.com/a_normal.png")
    static let mallory = Author(id: UserID(2), username: "mallory", name: #"<b>Bold</b> & "quoted" 'single'"#,
                                profileImageURL: "https://pbs.twimg.com/m_normal.png")
    static let hostileText = "<img src=x onerror=alert(1)><script>alert(2)</script>"
    /// Ids 1001...1060 by alice, then three hostile ones by mallory on top.
    static let plainIDs = (1001 ... 1060).map(Int64.init)
    static let hostileID: Int64 = 2001
    static let linkID: Int64 = 2002
    static let controlID: Int64 = 2003
    /// A 1×1 PNG.
    static let png: [UInt8] = Array(Data(base64Encoded:
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==")!)

    private(set) var aliceAvatarFile = ""

    init(allowRemote: Bool = false) async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("twfeed-web-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var config = TwfeedConfig(environment: ["HOME": folder])
        config.storage.database = "\(folder)/twfeed.sqlite"
        config.storage.imageCache = "\(folder)/images"
        config.http.listen = ListenAddress(host: "127.0.0.1", port: 0)
        config.http.allowRemote = allowRemote
        self.config = config
        database = try AppDatabase.open(path: config.storage.database)
        try await database.saveAccount(Account(userID: UserID(99), username: "me"))
        let base = 1_790_000_000.0
        var tweets = Self.plainIDs.map {
            Tweet(id: TweetID($0), authorID: Self.alice.id, createdAt: Date(timeIntervalSince1970: base + Double($0)),
                  text: "Plain tweet number \($0) about coffee")
        }
        tweets.append(Tweet(id: TweetID(Self.hostileID), authorID: Self.mallory.id,
                            createdAt: Date(timeIntervalSince1970: base + 5000), text: Self.hostileText))
        tweets.append(Tweet(
            id: TweetID(Self.linkID), authorID: Self.mallory.id, createdAt: Date(timeIntervalSince1970: base + 5001),
            text: "Links: https://t.co/js1 and https://t.co/ok2 and https://t.co/q3",
            links: [
                TweetLink(url: "https://t.co/js1", expandedURL: "javascript:alert(3)", displayURL: "click.me"),
                TweetLink(url: "https://t.co/ok2", expandedURL: "https://example.com/a?b=1&c=2", displayURL: "example.com/a…"),
                TweetLink(url: "https://t.co/q3", expandedURL: #"https://example.com/"onmouseover="alert(4)"#, displayURL: #"q"uote"#),
            ],
            rawJSON: #"{"entities":{"urls":[{"url":"https://t.co/js1","expanded_url":"javascript:alert(3)","display_url":"click.me"},{"url":"https://t.co/ok2","expanded_url":"https://example.com/a?b=1&c=2","display_url":"example.com/a…"},{"url":"https://t.co/q3","expanded_url":"https://example.com/\"onmouseover=\"alert(4)","display_url":"q\"uote"}]}}"#))
        tweets.append(Tweet(id: TweetID(Self.controlID), authorID: Self.mallory.id,
                            createdAt: Date(timeIntervalSince1970: base + 5002), text: "bell\u{07} and form\u{0C}feed ]]> end"))
        try await database.storePage(TimelinePage(tweets: tweets, authors: [Self.alice, Self.mallory], nextPageToken: nil),
                               feed: .home, state: SyncState(feed: .home), now: Date())
        try await database.storePage(TimelinePage(tweets: [tweets[0]], authors: [Self.alice], nextPageToken: nil),
                               feed: .mentions, state: SyncState(feed: .mentions), now: Date())
        let images = ImageStore(root: config.storage.imageCache)
        let stored = try await images.put(Self.png, format: .png)
        aliceAvatarFile = stored.file
        _ = try await database.recordImageFetched(
            .init(authorID: Self.alice.id, sourceURL: Self.alice.profileImageURL!, size: "normal",
                  url: Self.alice.profileImageURL!, usedAt: Date()),
            file: stored.file, bytes: stored.bytes, etag: nil, lastModified: nil, now: Date())
    }

    var logger: Logger {
        Logger(label: "web") { [sink] _ in EventLogHandler(level: .debug, format: .logfmt, sink: sink) }
    }

    /// The reader's secret (made by the first server).
    var secret: String { get throws { try ReaderSecret.loadOrCreate(path: ReaderSecret.path(config: config)).value } }

    /// How many times the compose and outbox pages rang the outbox.
    let rings = Mutex(0)

    /// The reader's source as `twfeed serve` makes it (the store opened read-only), with
    /// the daemon's doors to the outbox and the fetcher.
    /// - Parameter board: the daemon's live status, as the daemon hands its reader; nil:
    ///   as `twfeed serve`.
    func source(metrics: TwfeedMetrics = TwfeedMetrics(), clock: any WallClock = SystemClock(),
                board: (@Sendable () -> StatusSnapshot)? = nil) throws -> ReaderSource {
        ReaderSource(database: try StoreReader.open(path: config.storage.database), config: config,
                     statusPath: "\(folder)/status.json", metrics: metrics,
                     access: try ReaderAccess(config: config),
                     outbox: DurableOutbox(path: config.storage.database, wake: { [self] in rings.withLock { $0 += 1 } }),
                     fetches: FetchRequester(path: config.storage.database, clock: clock, logger: logger, wake: {}),
                     board: board, clock: clock)
    }

    /// Hands the body a client that asks the reader's router in process (no socket).
    /// Its requests send the secret as a bearer unless `signedIn` is false.
    /// - Parameter composeLimit: the most `/compose` reads, lowered to see its refusal.
    func withReader(metrics: TwfeedMetrics = TwfeedMetrics(), signedIn: Bool = true, clock: any WallClock = SystemClock(),
                    board: (@Sendable () -> StatusSnapshot)? = nil, composeLimit: Int? = nil,
                    _ body: (ReaderClient) async throws -> Void) async throws {
        var source = try source(metrics: metrics, clock: clock, board: board)
        if let composeLimit { source.composeLimit = composeLimit }
        let reader = try ReaderClient(source: source, logger: logger)
        try await RawHTTP.$bearer.withValue(signedIn ? try secret : nil) { try await body(reader) }
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }
}
