import Foundation
import Logging
import TwfeedBilling

/// Everything `config.json` can say, with INTERFACE.md's defaults.
package struct TwfeedConfig: Sendable, Equatable {
    package enum Dialect: String, Sendable, Equatable {
        case v2
        case v1_1 = "v1.1"
    }

    package struct API: Sendable, Equatable {
        package var dialect: Dialect = .v2
        /// No version path; nil means the dialect's default host.
        package var baseURL: String?
        package var timeoutSeconds: Double = 30
        /// Whether the signed-in account owns the developer app: its own mentions and posts
        /// are then billed at the owned read price, a fifth of a normal read.
        package var ownsApp = true
        /// What each resource costs; X's rates change, so the file may override them.
        package var prices = Prices.published
        package var budget = Budget()
        /// How often a daemon stopped for credits asks the API again.
        package var creditsRecheckMinutes = 15

        package var resolvedBaseURL: String {
            let base = baseURL ?? (dialect == .v2 ? "https://api.x.com" : "https://api.twitter.com")
            return base.hasSuffix("/") ? String(base.dropLast()) : base
        }

        /// Whether the amounts this API bills are real money: not when it answers on this
        /// machine's loopback (`twfeed-emulator`, as `twfeed demo` runs it), so that a
        /// demo's spend is never read as the user's. The one switch for that label.
        package var billsRealMoney: Bool {
            guard let host = URLComponents(string: resolvedBaseURL)?.host?.lowercased() else { return true }
            return !(host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127."))
        }

        /// What labels an amount that `billsRealMoney` says is not real.
        package static let playMoneyNote = "the emulator's money, not real"

        /// Why this dialect cannot carry photos; nil when it can. v1.1's media upload is
        /// retired. The one wording for `post`, `thread` and the reader's compose.
        package var photoRefusal: String? {
            dialect == .v1_1 ? "api.dialect is \"v1.1\", whose media upload X retired; photos need api.dialect \"v2\"" : nil
        }
    }

    /// `api.budget`: what the user means to spend in a billing cycle.
    package struct Budget: Sendable, Equatable {
        /// nil: no budget, spend what the polls spend.
        package var monthlyUSD: MicroUSD?
        /// The day of the month (1-28) the billing cycle starts on, at 00:00 UTC.
        package var cycleStartDay = 1

        /// The cycle; `cycleStartDay` is checked by the loader, so this never falls back.
        package var cycle: BillingCycle {
            (try? BillingCycle(startDay: cycleStartDay)) ?? (try! BillingCycle(startDay: 1))
        }
    }

    package struct FeedSettings: Sendable, Equatable {
        package var enabled = true
        package var intervalSeconds: Double
        /// Retweets only (`feeds.retweets.fullWalkHours`): how often the syncer reads
        /// every own original within the API's reach, to tag old tweets newly retweeted
        /// below the newest page, which every poll reads. A week by default: the deep
        /// check is most of a quiet account's bill when it runs daily (docs/COSTS.md).
        package var fullWalkHours = 168
    }

    package struct Storage: Sendable, Equatable {
        package var database: String
        package var imageCache: String
        /// Tweets older than this many days are pruned (`Pruner`); 0 keeps everything.
        package var keepDays = 0
    }

    package struct Images: Sendable, Equatable {
        package var enabled = true
        /// The pictures posts show (photos, the stills of videos and GIFs), cached beside
        /// the avatars under the same bound; only with `enabled`.
        package var photos = true
        package var size = "normal"
        package var maxCacheMB = 200
        package var revalidateDays = 7.0
        package var allowedHosts = ["pbs.twimg.com", "abs.twimg.com"]
        package var allowInsecureLoopback = false
        /// Downloads at once (1-16).
        package var concurrency = 4
        /// A whole image transfer, redirects each counted anew.
        package var timeoutSeconds: Double = 30
    }

    /// What a tweet points at (`graph`): how far up a reply's ancestors the prefetch
    /// after each poll reaches among the newest posts of each feed (0: none; the quoted
    /// posts and reposted originals are fetched from 1 on).
    package struct Graph: Sendable, Equatable {
        package var prefetchDepth = 1
    }

    package struct Outbox: Sendable, Equatable {
        package var flushIntervalSeconds: Double = 60
        /// 0: a queued status never expires.
        package var maxAgeHours: Double = 24
    }

    package struct Log: Sendable, Equatable {
        package enum Format: String, Sendable, Equatable { case logfmt, json }

        /// swift-log's own level type: what the config names is what the logger filters.
        package var level: Logger.Level = .info
        package var format: Format = .logfmt
        package var file: String?
    }

    /// The reader's web server (`http.listen`, `http.allowRemote`): off unless an
    /// address is given, and loopback only unless remote access is asked for, since
    /// the pages show a private timeline.
    package struct HTTP: Sendable, Equatable {
        /// Who may read the pages (`http.auth`). Loopback keeps the network out but not
        /// the machine's other accounts, so the owner signs in by default.
        package enum Auth: String, Sendable, Equatable {
            /// A session from `twfeed open`'s one-time link, or the bearer secret.
            case token
            /// Anyone who can reach the address: a single-user machine only.
            case none
        }

        package var listen: ListenAddress?
        package var allowRemote = false
        package var auth = Auth.token
    }

    package var api = API()
    package var graph = Graph()
    package var credentials: String
    package var feeds: [Feed: FeedSettings] = [
        .home: FeedSettings(intervalSeconds: 120),
        .mentions: FeedSettings(intervalSeconds: 120),
        .retweets: FeedSettings(intervalSeconds: 600),
    ]
    package var storage: Storage
    package var images = Images()
    package var outbox = Outbox()
    package var log = Log()
    package var http = HTTP()
    /// The file this configuration came from, nil when built in code.
    package var sourcePath: String?
    /// `--account NAME`: the instance of `twfeed@.service` this config belongs to.
    package var account: HostAccount?
    /// Where an account's status snapshot and wake socket live when run from a shell
    /// (its unit's `/run/twfeed/NAME`); `$RUNTIME_DIRECTORY`, when set, comes first.
    package var runtimeDirectory: String?

    /// Defaults for the given environment: under systemd, storage and credentials move
    /// to the directories systemd hands the service; for an account run from a shell, to
    /// the directories its unit would be handed (`HostAccount`), so both find one database.
    package init(environment: [String: String] = ProcessInfo.processInfo.environment, account: HostAccount? = nil) {
        let home = environment["HOME"] ?? NSHomeDirectory()
        func directory(_ name: String) -> String? {
            environment[name].flatMap { $0.split(separator: ":").first.map(String.init) }
        }
        let state = directory("STATE_DIRECTORY") ?? account?.stateDirectory
        let cache = directory("CACHE_DIRECTORY") ?? account?.cacheDirectory
        credentials =
            environment["CREDENTIALS_DIRECTORY"].map { "\($0)/credentials.json" }
            ?? account?.credentialsPath
            ?? "\(home)/.config/twfeed/credentials.json"
        storage = Storage(
            database: state.map { "\($0)/twfeed.sqlite" } ?? "\(home)/.local/share/twfeed/twfeed.sqlite",
            imageCache: cache.map { "\($0)/images" } ?? "\(home)/.cache/twfeed/images"
        )
        self.account = account
        runtimeDirectory = account?.runtimeDirectory
    }

    package var enabledFeeds: [Feed] { Feed.polled.filter { feeds[$0]?.enabled ?? false } }
}
