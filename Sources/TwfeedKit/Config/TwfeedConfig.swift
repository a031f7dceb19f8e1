import Foundation
import Logging

/// Everything `config.json` can say, with INTERFACE.md's defaults.
public struct TwfeedConfig: Sendable, Equatable {
    public enum Dialect: String, Sendable, Equatable { case v2, v1_1 = "v1.1" }

    public struct API: Sendable, Equatable {
        public var dialect: Dialect = .v2
        /// No version path; nil means the dialect's default host.
        public var baseURL: String?
        public var timeoutSeconds: Double = 30

        public var resolvedBaseURL: String {
            let base = baseURL ?? (dialect == .v2 ? "https://api.x.com" : "https://api.twitter.com")
            return base.hasSuffix("/") ? String(base.dropLast()) : base
        }
    }

    public struct FeedSettings: Sendable, Equatable {
        public var enabled = true
        public var intervalSeconds: Double
        /// Retweets only (`feeds.retweets.fullWalkHours`): how often the syncer walks
        /// every page within the API's reach, to tag old tweets newly retweeted.
        public var fullWalkHours = 24
    }

    public struct Storage: Sendable, Equatable {
        public var database: String
        public var imageCache: String
        /// Tweets older than this many days are pruned (`Pruner`); 0 keeps everything.
        public var keepDays = 0
    }

    public struct Images: Sendable, Equatable {
        public var enabled = true
        public var size = "normal"
        public var maxCacheMB = 200
        public var revalidateDays = 7.0
        public var allowedHosts = ["pbs.twimg.com", "abs.twimg.com"]
        public var allowInsecureLoopback = false
        /// Downloads at once (1-16).
        public var concurrency = 4
        /// A whole image transfer, redirects each counted anew.
        public var timeoutSeconds: Double = 30
    }

    public struct Outbox: Sendable, Equatable {
        public var flushIntervalSeconds: Double = 60
        /// 0: a queued status never expires.
        public var maxAgeHours: Double = 24
    }

    public struct Log: Sendable, Equatable {
        public enum Format: String, Sendable, Equatable { case logfmt, json }

        /// swift-log's own level type: what the config names is what the logger filters.
        public var level: Logger.Level = .info
        public var format: Format = .logfmt
        public var file: String?
    }

    /// The reader's web server (`http.listen`, `http.allowRemote`): off unless an
    /// address is given, and loopback only unless remote access is asked for, since
    /// the pages show a private timeline.
    public struct HTTP: Sendable, Equatable {
        public var listen: ListenAddress?
        public var allowRemote = false
    }

    public var api = API()
    public var credentials: String
    public var feeds: [Feed: FeedSettings] = [
        .home: FeedSettings(intervalSeconds: 120),
        .mentions: FeedSettings(intervalSeconds: 120),
        .retweets: FeedSettings(intervalSeconds: 600),
    ]
    public var storage: Storage
    public var images = Images()
    public var outbox = Outbox()
    public var log = Log()
    public var http = HTTP()
    /// The file this configuration came from, nil when built in code.
    public var sourcePath: String?

    /// Defaults for the given environment: under systemd, storage and credentials move
    /// to the directories systemd hands the service.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let home = environment["HOME"] ?? NSHomeDirectory()
        let state = environment["STATE_DIRECTORY"].flatMap { $0.split(separator: ":").first.map(String.init) }
        let cache = environment["CACHE_DIRECTORY"].flatMap { $0.split(separator: ":").first.map(String.init) }
        credentials = environment["CREDENTIALS_DIRECTORY"].map { "\($0)/credentials.json" }
            ?? "\(home)/.config/twfeed/credentials.json"
        storage = Storage(
            database: state.map { "\($0)/twfeed.sqlite" } ?? "\(home)/.local/share/twfeed/twfeed.sqlite",
            imageCache: cache.map { "\($0)/images" } ?? "\(home)/.cache/twfeed/images"
        )
    }

    public var enabledFeeds: [Feed] { Feed.allCases.filter { feeds[$0]?.enabled ?? false } }
}
