import Foundation
import Logging
import TwfeedCore
import TwfeedEmulator
import TwfeedKit
import TwfeedStore

/// Two archives of the same size for `--graph-pages`: the benchmark's archive
/// (`SyntheticArchive`) with the same newest pages stored on top of it, once plain and
/// once pointing at what they show. The plain copy is the home page as it was before
/// the graph: every post stands alone. The graph copy has the same rows, but a quarter
/// of its newest home posts are reposts of stored originals, some quote stored posts,
/// some reply to stored parents, and photos (with their size and alt text) sit on some
/// posts; it also holds a conversation of depth 6 whose last post has 20 stored
/// replies. Both are stored through `storePage`, media rows included, as the daemon
/// stores a page.
///
/// Built once into the cache folder, keyed like the base archive, plus `version`.
enum GraphArchive {
    /// Bump when the generated top pages change.
    static let version = 1

    enum Variant: String, CaseIterable {
        case plain
        case graph
    }

    struct Pair {
        let plain: SyntheticArchive.Built
        let graph: SyntheticArchive.Built
        /// The conversation's last post: `/tweet/ID` of the benchmark.
        let conversationLeaf: TweetID
        let conversationDepth: Int
        let conversationReplies: Int
        /// What the graph copy's top holds (for the report).
        let top: GraphTop.Summary
    }

    static func pair(size: Int, cache: String) async throws -> Pair {
        let top = GraphTop(seed: UInt64(size))
        var built: [Variant: SyntheticArchive.Built] = [:]
        var base: SyntheticArchive.Built?
        for variant in Variant.allCases {
            let path =
                "\(cache)/graph-\(variant.rawValue)-\(size)-g\(SyntheticArchive.generatorVersion)t\(version)-s\(try SyntheticArchive.schemaKey()).sqlite"
            if !FileManager.default.fileExists(atPath: path) {
                if base == nil { base = try await SyntheticArchive.database(size: size, cache: cache) }
                let started = DispatchTime.now()
                let partial = path + ".partial"
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: partial + suffix) }
                for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: base!.path + suffix) {
                    try FileManager.default.copyItem(atPath: base!.path + suffix, toPath: partial + suffix)
                }
                try await store(top.pages(variant), path: partial)
                for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
                try FileManager.default.moveItem(atPath: partial, toPath: path)
                if FileManager.default.fileExists(atPath: partial + "-wal") {
                    try FileManager.default.moveItem(atPath: partial + "-wal", toPath: path + "-wal")
                }
                GraphPages.progress(
                    String(format: "built the %@ archive of %d tweets in %.1f s: %@", variant.rawValue, size, Bench.elapsed(since: started), path)
                )
            }
            let database = try AppDatabase.open(path: path)
            let (tweets, home) = (try await database.storedTweetCount(), try await database.feedStats(.home).tweets)
            built[variant] = SyntheticArchive.Built(path: path, tweets: tweets, homeTweets: home, bytes: SyntheticArchive.fileBytes(path))
        }
        return Pair(
            plain: built[.plain]!,
            graph: built[.graph]!,
            conversationLeaf: top.conversationLeaf,
            conversationDepth: GraphTop.conversationDepth,
            conversationReplies: GraphTop.conversationReplies,
            top: top.summary
        )
    }

    /// The pages oldest first, one `storePage` (one transaction) each, then the search
    /// index merged as the daemon's merger leaves it.
    static func store(_ pages: [TimelinePage], path: String) async throws {
        let database = try AppDatabase.open(path: path)
        for page in pages {
            // As the base archive's pages: the feed's position at the page's newest post.
            var state = SyncState(feed: .home)
            state.newestID = page.tweets.map(\.id).max()
            try await database.storePage(page, feed: .home, state: state, now: Date())
        }
        try await SearchIndexMerger(
            database: database,
            clock: SystemClock(),
            logger: Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() }
        ).mergeAll()
    }
}

/// The newest home pages of `GraphArchive`, newer than anything the base archive holds,
/// in two variants of the same rows. Deterministic from the seed.
struct GraphTop {
    /// Home posts in the top: ten pages of the reader.
    static let homePosts = 500
    /// Posts per `storePage`, as a v2 timeline page.
    static let pagePosts = 100
    /// Above the last post: the root and five more.
    static let conversationDepth = 6
    static let conversationReplies = 20
    /// Above every id of the base archive (its ids start at 1.5e18 and grow by at most
    /// 4,096 a tweet).
    static let firstID: Int64 = 1_600_000_000_000_000_000

    /// One stored post: a home member, or only stored (an original, a quoted post, a
    /// parent, a conversation's post above the last).
    struct Post {
        var tweet: Tweet
        var member: Bool
    }

    struct Summary {
        var home = 0
        var reposts = 0
        var quotes = 0
        var replies = 0
        var withMedia = 0
        var mediaItems = 0
        var storedOnly = 0
    }

    /// Oldest first, as the daemon would have stored them.
    private(set) var posts: [Post] = []
    private(set) var conversationLeaf = TweetID(0)
    private(set) var summary = Summary()

    private var random: SeededRandom
    private var nextID = firstID
    private let authors: [Author]
    private let now = Date().timeIntervalSince1970

    init(seed: UInt64) {
        random = SeededRandom(seed: seed &+ 19)
        authors = TweetGenerator(size: Int(seed)).authors
        generate()
    }

    /// The top as `storePage` pages for the variant: the graph one as generated; the
    /// plain one the same posts, each standing alone (no repost, quote, parent or media).
    func pages(_ variant: GraphArchive.Variant) -> [TimelinePage] {
        var pages: [TimelinePage] = []
        var tweets: [Tweet] = []
        var referenced: [Tweet] = []
        func flush() {
            guard !tweets.isEmpty || !referenced.isEmpty else { return }
            let used = Set((tweets + referenced).map(\.authorID))
            pages.append(
                TimelinePage(
                    tweets: tweets.reversed(),
                    referencedTweets: referenced,
                    authors: authors.filter { used.contains($0.id) },
                    nextPageToken: nil
                )
            )
            tweets = []
            referenced = []
        }
        for post in posts {
            let tweet = variant == .graph ? post.tweet : Self.alone(post.tweet)
            if post.member {
                tweets.append(tweet)
                if tweets.count == Self.pagePosts { flush() }
            } else {
                referenced.append(tweet)
            }
        }
        flush()
        return pages
    }

    /// The post as it would be stored if it pointed at nothing.
    static func alone(_ tweet: Tweet) -> Tweet {
        var plain = tweet
        plain.inReplyToID = nil
        plain.retweetOfID = nil
        plain.quotedID = nil
        plain.conversationID = tweet.id
        plain.media = []
        plain.rawJSON = raw(plain)
        plain.links = links(plain)
        return plain
    }

    private mutating func generate() {
        var recentHome: [TweetID] = []
        for index in 0..<Self.homePosts {
            if index == Self.homePosts / 2 { conversation() }
            let author = anyAuthor()
            let kind = random.next() % 100
            var tweet: Tweet
            if kind < 25 {
                // A repost of a stored original; some originals quote or answer a stored post.
                var original = post(author: anyAuthor(), text: sentence(), mediaChance: 30)
                let originalKind = random.next() % 10
                if originalKind == 0 {
                    original.quotedID = stored(post(author: anyAuthor(), text: sentence(), mediaChance: 25)).id
                } else if originalKind == 1 {
                    original.inReplyToID = stored(post(author: anyAuthor(), text: sentence(), mediaChance: 0)).id
                    original.conversationID = original.inReplyToID
                }
                stored(original)
                let originalAuthor = authors.first { $0.id == original.authorID }!
                tweet = post(author: author, text: "RT @\(originalAuthor.username): \(original.text)", mediaChance: 0)
                tweet.retweetOfID = original.id
                summary.reposts += 1
            } else if kind < 35 {
                let quoted = stored(post(author: anyAuthor(), text: sentence(), mediaChance: 25))
                tweet = post(author: author, text: sentence(), mediaChance: 10)
                tweet.quotedID = quoted.id
                summary.quotes += 1
            } else if kind < 55 {
                // Half answer a post of the feed, half a parent stored only as a parent
                // (what the prefetch stores).
                let parent: TweetID
                if let last = recentHome.last, random.next() % 2 == 0 {
                    parent = last
                } else {
                    parent = stored(post(author: anyAuthor(), text: sentence(), mediaChance: 15)).id
                }
                tweet = post(author: author, text: sentence(), mediaChance: 15)
                tweet.inReplyToID = parent
                tweet.conversationID = parent
                summary.replies += 1
            } else {
                tweet = post(author: author, text: sentence(), mediaChance: 20)
            }
            member(tweet)
            recentHome.append(tweet.id)
        }
    }

    /// A root and five posts each answering the one before, the last one in home, and
    /// 20 replies to the last (every fourth in home, some with photos, two quoting).
    private mutating func conversation() {
        var parent = stored(post(author: anyAuthor(), text: sentence(), mediaChance: 30))
        let root = parent.id
        for depth in 1...Self.conversationDepth {
            var next = post(author: anyAuthor(), text: sentence(), mediaChance: 15)
            next.inReplyToID = parent.id
            next.conversationID = root
            if depth == Self.conversationDepth {
                member(next)
                conversationLeaf = next.id
                summary.replies += 1
            } else {
                stored(next)
            }
            parent = next
        }
        for index in 0..<Self.conversationReplies {
            var reply = post(author: anyAuthor(), text: sentence(), mediaChance: 20)
            reply.inReplyToID = conversationLeaf
            reply.conversationID = root
            if index % 10 == 3 { reply.quotedID = stored(post(author: anyAuthor(), text: sentence(), mediaChance: 25)).id }
            if index % 4 == 0 {
                member(reply)
                summary.replies += 1
            } else {
                stored(reply)
            }
        }
    }

    /// A post, its raw JSON made when it is stored (after its references are set).
    private mutating func post(author: Author, text: String, mediaChance: UInt64) -> Tweet {
        nextID += 1 + Int64(random.next() % 4_096)
        let id = TweetID(nextID)
        // Minutes apart, up to now: newer than the base archive's newest.
        let createdAt = Date(timeIntervalSince1970: now - Double(Self.homePosts * 4 - posts.count) * 30)
        var tweet = Tweet(id: id, authorID: author.id, createdAt: createdAt, text: text, conversationID: id)
        if random.next() % 100 < mediaChance { tweet.media = media(of: id) }
        return tweet
    }

    @discardableResult
    private mutating func stored(_ tweet: Tweet) -> Tweet {
        var tweet = tweet
        tweet.rawJSON = Self.raw(tweet)
        tweet.links = Self.links(tweet)
        posts.append(Post(tweet: tweet, member: false))
        summary.storedOnly += 1
        count(tweet)
        return tweet
    }

    private mutating func member(_ tweet: Tweet) {
        var tweet = tweet
        tweet.rawJSON = Self.raw(tweet)
        tweet.links = Self.links(tweet)
        posts.append(Post(tweet: tweet, member: true))
        summary.home += 1
        count(tweet)
    }

    private mutating func count(_ tweet: Tweet) {
        if !tweet.media.isEmpty {
            summary.withMedia += 1
            summary.mediaItems += tweet.media.count
        }
    }

    /// One to four photos with their size and (mostly) alt text, or one video's still.
    private mutating func media(of id: TweetID) -> [Media] {
        let sizes = [(1200, 675), (1080, 1350), (2048, 1536), (1600, 900), (900, 1200)]
        if random.next() % 10 == 0 {
            let key = "7_\(id.rawValue)"
            return [
                Media(
                    key: key,
                    kind: .video,
                    imageURL: "https://pbs.twimg.com/ext_tw_video_thumb/\(id.rawValue)/pu/img/\(key).jpg",
                    width: 1280,
                    height: 720
                )
            ]
        }
        let count = [1, 1, 1, 1, 2, 2, 3, 4][Int(random.next() % 8)]
        return (0..<count).map { position in
            let key = "3_\(id.rawValue)\(position)"
            let (width, height) = sizes[Int(random.next() % UInt64(sizes.count))]
            return Media(
                key: key,
                kind: .photo,
                imageURL: "https://pbs.twimg.com/media/\(key).jpg",
                width: width,
                height: height,
                altText: random.next() % 10 < 7 ? sentence(words: 8) : nil
            )
        }
    }

    private mutating func anyAuthor() -> Author {
        authors[Int(random.next() % UInt64(authors.count))]
    }

    /// 6 to 30 words of the base archive's vocabulary; some with a hashtag or a link.
    private mutating func sentence(words: Int? = nil) -> String {
        let count = words ?? (6 + Int(random.next() % 25))
        var text = (0..<count).map { _ in TweetGenerator.words[Int(random.next() % UInt64(TweetGenerator.words.count))] }
            .joined(separator: " ")
        if words == nil, random.next() % 5 == 0 {
            text += " " + TweetGenerator.hashtags[Int(random.next() % UInt64(TweetGenerator.hashtags.count))]
        }
        if words == nil, random.next() % 4 == 0 { text += " https://t.co/\(String(random.next() % 1_000_000_000, radix: 36))" }
        return String(text.prefix(280))
    }

    /// The link `raw` marks, as the client would have read it from that object.
    static func links(_ tweet: Tweet) -> [TweetLink] {
        guard let range = tweet.text.range(of: "https://t.co/") else { return [] }
        let url = String(tweet.text[range.lowerBound...].prefix { $0 != " " })
        let path = url.dropFirst("https://t.co/".count)
        return [TweetLink(url: url, expandedURL: "https://example.com/read/\(path)", displayURL: "example.com/read/\(path)")]
    }

    /// The v2 object the API would have sent: references, media keys, the link's entity.
    static func raw(_ tweet: Tweet) -> String {
        var object: [String: JSONValue] = [
            "id": .string(tweet.id.description),
            "text": .string(tweet.text),
            "created_at": .string(tweet.createdAt.formatted(.iso8601)),
            "author_id": .string(tweet.authorID.description),
            "conversation_id": .string((tweet.conversationID ?? tweet.id).description),
            "edit_history_tweet_ids": .array([.string(tweet.id.description)]),
            "lang": .string("en"),
        ]
        var references: [JSONValue] = []
        for (type, id) in [("replied_to", tweet.inReplyToID), ("retweeted", tweet.retweetOfID), ("quoted", tweet.quotedID)] {
            if let id { references.append(.object(["type": .string(type), "id": .string(id.description)])) }
        }
        if !references.isEmpty { object["referenced_tweets"] = .array(references) }
        if !tweet.media.isEmpty { object["attachments"] = .object(["media_keys": .array(tweet.media.map { .string($0.key) })]) }
        if let range = tweet.text.range(of: "https://t.co/") {
            let url = String(tweet.text[range.lowerBound...].prefix { $0 != " " })
            let start = tweet.text.distance(from: tweet.text.startIndex, to: range.lowerBound)
            let path = url.dropFirst("https://t.co/".count)
            object["entities"] = .object([
                "urls": .array([
                    .object([
                        "start": .number(String(start)),
                        "end": .number(String(start + url.count)),
                        "url": .string(url),
                        "expanded_url": .string("https://example.com/read/\(path)"),
                        "display_url": .string("example.com/read/\(path)"),
                    ])
                ])
            ])
        }
        return JSONValue.object(object).serialized
    }
}
