import Foundation
import Logging
import TwfeedCore
import TwfeedEmulator
import TwfeedKit
import TwfeedStore

/// A year of timelines built through the real store (`AppDatabase.storePage`), so the
/// database has exactly the rows, indexes, counters and search index the daemon would
/// leave: three feeds, a few thousand authors, replies, retweets and quotes, text of
/// tweet-like length with some accented words, and the raw v2 JSON of each tweet.
///
/// Built databases are kept in `.bench-cache/`, keyed by size, the generator's version
/// and the schema's migrations, so a rerun is quick and a schema change rebuilds.
enum SyntheticArchive {
    /// Bump when the generated rows change.
    static let generatorVersion = 3
    /// A word the search timing looks for: about one tweet in twelve has it.
    static let searchWord = "release"

    struct Built {
        let path: String
        let tweets: Int
        let homeTweets: Int
        let bytes: Int
    }

    /// The cached database of `size` tweets, built first when missing.
    static func database(size: Int, cache: String) async throws -> Built {
        try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
        let path = "\(cache)/archive-\(size)-g\(generatorVersion)-s\(try schemaKey()).sqlite"
        if !FileManager.default.fileExists(atPath: path) {
            let partial = path + ".partial"
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: partial + suffix) }
            let started = DispatchTime.now()
            try await build(size: size, path: partial)
            try FileManager.default.moveItem(atPath: partial, toPath: path)
            FileHandle.standardError.write(
                Data(
                    String(
                        format: "bench: built %d tweets in %.1f s: %@\n",
                        size,
                        Bench.elapsed(since: started),
                        path
                    ).utf8
                )
            )
        }
        let database = try AppDatabase.open(path: path)
        let (tweets, home) = (try await database.storedTweetCount(), try await database.feedStats(.home).tweets)
        return Built(path: path, tweets: tweets, homeTweets: home, bytes: fileBytes(path))
    }

    /// The database file and its WAL, as they sit on disk.
    static func fileBytes(_ path: String) -> Int {
        ["", "-wal"].reduce(0) { total, suffix in
            let size = (try? FileManager.default.attributesOfItem(atPath: path + suffix)[.size] as? Int) ?? nil
            return total + (size ?? 0)
        }
    }

    /// A short hash of the migrations this build runs: a new migration means a new cache file.
    static func schemaKey() throws -> String {
        let identifiers = AppDatabase.migrationIdentifiers
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in identifiers.joined(separator: "|").utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return String(hash & 0xffff_ffff, radix: 16)
    }

    /// Writes `size` tweets (members and the originals they retweet or quote) oldest
    /// first, a day's worth of pages at a time, one `storePage` (one transaction) per page.
    static func build(size: Int, path: String) async throws {
        let database = try AppDatabase.open(path: path)
        // Signed in, as a daemon's database is, and as the account the probes' sandbox
        // emulator serves: otherwise the daemon started on a copy adopts every unowned row
        // in one transaction, which a real database never asks of it.
        try await database.saveAccount(Account(userID: UserID(Emulator.accountUserID)!, username: Emulator.accountUsername))
        var generator = TweetGenerator(size: size)
        while let (feed, page) = generator.nextPage() {
            var state = SyncState(feed: feed)
            state.newestID = page.tweets.map(\.id).max()
            try await database.storePage(page, feed: feed, state: state, now: Date())
        }
        // As a daemon's database is: its search index merged (every 15 minutes there).
        try await SearchIndexMerger(
            database: database,
            clock: SystemClock(),
            logger: Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() }
        ).mergeAll()
    }
}

/// Deterministic tweets: the same size gives the same database.
struct TweetGenerator {
    static let me = Author(id: UserID(1_000), username: "me", name: "Bench User")
    static let words = """
        the a to of and in is it you that for on this with just be are my was at not so have but we \
        what all about out up like time today people new now get one more good how day can will year \
        think know really great some love work make would back see going still want been need last \
        first only because over other after right thing night week world never best home again also \
        release swift server database query index timeline search backup archive deploy latency linux \
        café naïve résumé façade über São Paulo Zürich coördinate München déjà vu \
        coffee morning music weather train city football election climate science book film garden
        """.split(separator: " ").map(String.init)
    static let hashtags = ["#swiftlang", "#sqlite", "#linux", "#opensource", "#rustlang", "#ai", "#news"]

    let size: Int
    let authors: [Author]
    private var random: SeededRandom
    private var nextID: Int64 = 1_500_000_000_000_000_000
    private var stored = 0
    private var pageIndex = 0
    private var recent: [TweetID] = []
    private let start: Double
    private let step: Double

    init(size: Int) {
        self.size = size
        random = SeededRandom(seed: UInt64(size))
        let authorCount = max(200, min(5_000, size / 200))
        var authors: [Author] = []
        for index in 0..<authorCount {
            let first = ["anna", "ben", "chloé", "dmitri", "emeka", "fatima", "gus", "hana", "ivan", "jo"][index % 10]
            authors.append(
                Author(
                    id: UserID(Int64(2_000 + index)),
                    username: "\(first.replacingOccurrences(of: "é", with: "e"))_\(index)",
                    name: "\(first.capitalized) \(["Smith", "García", "Müller", "Okafor", "Tanaka"][index % 5])",
                    profileImageURL: "https://pbs.twimg.com/profile_images/\(index)/photo_normal.png"
                )
            )
        }
        self.authors = authors
        // A year up to now, evenly: the newest tweets are minutes old.
        let now = Date().timeIntervalSince1970
        start = now - 365 * 86_400
        step = 365 * 86_400 / Double(size)
    }

    /// Pages of 200 tweets, cycling home (8 of 10), mentions, retweets of me.
    mutating func nextPage() -> (Feed, TimelinePage)? {
        guard stored < size else { return nil }
        pageIndex += 1
        let feed: Feed = pageIndex % 10 == 0 ? .mentions : (pageIndex % 10 == 5 ? .retweets : .home)
        var tweets: [Tweet] = []
        var referenced: [Tweet] = []
        var authorsUsed: [Int: Author] = [:]
        while stored < size, tweets.count < 200 {
            let author = feed == .retweets ? Self.me : authors[Int(random.next() % UInt64(authors.count))]
            authorsUsed[Int(author.id.rawValue)] = author
            var text = sentence(mention: feed == .mentions ? "@me " : "")
            var tweet = makeTweet(author: author, text: text)
            let kind = random.next() % 100
            if feed == .home, kind < 23, stored + 1 < size {
                // A retweet (15%) or a quote (8%): the original is stored too.
                let originalAuthor = authors[Int(random.next() % UInt64(authors.count))]
                authorsUsed[Int(originalAuthor.id.rawValue)] = originalAuthor
                let original = makeTweet(author: originalAuthor, text: sentence(mention: ""))
                referenced.append(original)
                stored += 1
                if kind < 15 {
                    text = "RT @\(originalAuthor.username): \(original.text)"
                    tweet = makeTweet(author: author, text: text, retweetOf: original.id)
                } else {
                    tweet = makeTweet(author: author, text: text, quoted: original.id)
                }
            } else if kind < 43 || feed == .mentions, let target = recent.last {
                tweet = makeTweet(author: author, text: text, inReplyTo: target)
            }
            tweets.append(tweet)
            stored += 1
            recent.append(tweet.id)
            if recent.count > 64 { recent.removeFirst(32) }
        }
        authorsUsed[Int(Self.me.id.rawValue)] = Self.me
        return (
            feed,
            TimelinePage(
                tweets: tweets.reversed(),
                referencedTweets: referenced,
                authors: Array(authorsUsed.values),
                nextPageToken: nil
            )
        )
    }

    /// 6 to 40 words: 30 to 280 characters, about 120 on average.
    private mutating func sentence(mention: String) -> String {
        var text = mention
        let count = 6 + Int(random.next() % 20) + (random.next() % 4 == 0 ? Int(random.next() % 15) : 0)
        for index in 0..<count {
            if index > 0 { text += " " }
            text += Self.words[Int(random.next() % UInt64(Self.words.count))]
        }
        if random.next() % 5 == 0 { text += " " + Self.hashtags[Int(random.next() % UInt64(Self.hashtags.count))] }
        if random.next() % 4 == 0 { text += " https://t.co/\(String(random.next() % 1_000_000_000, radix: 36))" }
        return String(text.prefix(280))
    }

    private mutating func makeTweet(
        author: Author,
        text: String,
        inReplyTo: TweetID? = nil,
        retweetOf: TweetID? = nil,
        quoted: TweetID? = nil
    ) -> Tweet {
        nextID += 1 + Int64(random.next() % 4_096)
        let id = TweetID(nextID)
        let createdAt = Date(timeIntervalSince1970: start + Double(stored) * step)
        var references: [String] = []
        if let inReplyTo { references.append("{\"type\":\"replied_to\",\"id\":\"\(inReplyTo.rawValue)\"}") }
        if let retweetOf { references.append("{\"type\":\"retweeted\",\"id\":\"\(retweetOf.rawValue)\"}") }
        if let quoted { references.append("{\"type\":\"quoted\",\"id\":\"\(quoted.rawValue)\"}") }
        let raw = """
            {"id":"\(id.rawValue)","text":"\(text)","created_at":"\(createdAt.formatted(.iso8601))",\
            "author_id":"\(author.id.rawValue)","conversation_id":"\((inReplyTo ?? id).rawValue)",\
            "edit_history_tweet_ids":["\(id.rawValue)"],\
            \(references.isEmpty ? "" : "\"referenced_tweets\":[\(references.joined(separator: ","))],")\
            "public_metrics":{"retweet_count":\(random.next() % 50),"reply_count":\(random.next() % 20),\
            "like_count":\(random.next() % 500),"quote_count":\(random.next() % 5)},"lang":"en"}
            """
        return Tweet(
            id: id,
            authorID: author.id,
            createdAt: createdAt,
            text: text,
            inReplyToID: inReplyTo,
            retweetOfID: retweetOf,
            quotedID: quoted,
            conversationID: inReplyTo ?? id,
            rawJSON: raw
        )
    }
}
