import ArgumentParser
import Foundation
import Synchronization
import TwfeedCore
import TwfeedKit
import TwfeedStore

/// What the commands that list cached tweets (`feed`, `search`) share: how many, how
/// they are shown, and the read-only database they come from, so both print a tweet
/// byte for byte alike.
struct TweetListOptions: ParsableArguments {
    /// Unconditional, so that `--limit -1` is refused as -1, not as a missing value.
    @Option(parsing: .unconditional, help: "How many tweets to show.")
    var limit: Int = 20

    @Flag(help: "One JSON object per line.")
    var json = false

    func validate() throws {
        guard limit > 0 else { throw ValidationError("--limit must be at least 1") }
    }

    /// Opens the database read-only (saying so when there is none yet) and prints the
    /// tweets `read` hands over, newest first as given, as they come; returns how many
    /// (nil when there is no database).
    ///
    /// - Parameter read: gets the database, the avatar lookup that turns a cached image's
    ///   name into its path (nil when not on disk), and the `Listing` to hand each tweet
    ///   to (`take`); returns it. The store reads on a thread of its own, so the listing
    ///   goes through the read and comes back.
    ///   - gaps: the feed's recorded gaps, newest first: each is shown (a line of its
    ///     own) where it lies, just above the first tweet below it, or after the last
    ///     tweet when the list reached the feed's end (fewer than `limit` shown).
    /// - Returns: how many tweets were shown.
    @discardableResult
    func show(
        config: TwfeedConfig,
        gaps: (StoreReader) async throws -> [FeedGap] = { _ in [] },
        _ read: (StoreReader, _ avatarPath: @escaping @Sendable (String) -> String?, Listing) async throws -> Listing
    ) async throws -> Int? {
        guard FileManager.default.fileExists(atPath: config.storage.database) else {
            CommandLineEdge.printError("no tweets cached yet: \(config.storage.database) does not exist (start twfeed run)")
            return nil
        }
        let database = try StoreReader.open(path: config.storage.database)
        let avatars = AvatarPaths(ImageStore(root: config.storage.imageCache))
        var listing = Listing(json: json, gapsLeft: try await gaps(database)[...])
        listing = try await read(database, { avatars.path($0) }, listing)
        // Text shows each link where it leads, as `show`, the reader and a reply's line of
        // its parent do: the links are read once the walk is done, for the items shown.
        if !listing.shown.isEmpty {
            let links = try await database.tweetLinks(FeedItem.linkIDs(listing.shown))
            for item in listing.shown { listing.emit(item, links: links) }
        }
        // The end of the feed: what lies below its oldest post (a first backfill's gap).
        if listing.count < limit { listing.gapsLeft.forEach { listing.showGap($0) } }
        listing.output.flush()
        return listing.count
    }
}

/// What `show` prints, as the store hands the tweets over. JSON streams as SQLite steps
/// (a full dump holds one item); text waits for the links.
struct Listing: Sendable {
    let json: Bool
    var gapsLeft: ArraySlice<FeedGap>
    var output = StandardOutput()
    var count = 0
    var shown: [FeedItem] = []

    init(json: Bool, gapsLeft: ArraySlice<FeedGap>) {
        self.json = json
        self.gapsLeft = gapsLeft
    }

    mutating func take(_ item: FeedItem) {
        count += 1
        if json { emit(item, links: [:]) } else { shown.append(item) }
    }

    mutating func showGap(_ gap: FeedGap) {
        output.buffer.append(contentsOf: (json ? FeedGapPresenter.json(gap) : FeedGapPresenter.text(gap)).utf8)
        output.buffer.append(UInt8(ascii: "\n"))
    }

    mutating func emit(_ item: FeedItem, links: [TweetID: [TweetLink]]) {
        while let gap = gapsLeft.first, item.tweet.id < gap.olderThanID {
            gapsLeft.removeFirst()
            showGap(gap)
        }
        if json {
            item.appendJSON(to: &output.buffer)
        } else {
            output.buffer.append(contentsOf: FeedPresenter.text(item, links: links).utf8)
        }
        output.buffer.append(UInt8(ascii: "\n"))
        output.flushIfFull()
    }
}

/// One stat per author, not per tweet: a feed repeats its authors.
final class AvatarPaths: Sendable {
    private let images: ImageStore
    private let known = Mutex<[String: String?]>([:])

    init(_ images: ImageStore) {
        self.images = images
    }

    func path(_ file: String) -> String? {
        if let found = known.withLock({ $0[file] }) { return found }
        let path = images.cachedPath(file)
        known.withLock { $0[file] = path }
        return path
    }
}
