import ArgumentParser
import Foundation
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
    ///   name into its path (nil when not on disk), and the function to hand each tweet to.
    ///   - gaps: the feed's recorded gaps, newest first: each is shown (a line of its
    ///     own) where it lies, just above the first tweet below it, or after the last
    ///     tweet when the list reached the feed's end (fewer than `limit` shown).
    /// - Returns: how many tweets were shown.
    @discardableResult
    func show(
        config: TwfeedConfig,
        gaps: (StoreReader) throws -> [FeedGap] = { _ in [] },
        _ read: (StoreReader, _ avatarPath: (String) -> String?, _ print: (FeedItem) -> Void) throws -> Void
    ) throws -> Int? {
        guard FileManager.default.fileExists(atPath: config.storage.database) else {
            CommandLineEdge.printError("no tweets cached yet: \(config.storage.database) does not exist (start twfeed run)")
            return nil
        }
        let database = try StoreReader.open(path: config.storage.database)
        let images = ImageStore(root: config.storage.imageCache)
        // One stat per author, not per tweet: a feed repeats its authors.
        var avatars: [String: String?] = [:]
        func avatarPath(_ file: String) -> String? {
            if let known = avatars[file] { return known }
            let path = images.cachedPath(file)
            avatars[file] = path
            return path
        }
        var output = StandardOutput()
        var gapsLeft = try gaps(database)[...]
        var count = 0
        func showGap(_ gap: FeedGap) {
            output.buffer.append(contentsOf: (json ? FeedGapPresenter.json(gap) : FeedGapPresenter.text(gap)).utf8)
            output.buffer.append(UInt8(ascii: "\n"))
        }
        func emit(_ item: FeedItem, links: [TweetID: [TweetLink]]) {
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
        // JSON streams as SQLite steps (a full dump holds one item). Text shows each link
        // where it leads, as `show`, the reader and a reply's line of its parent do: the
        // links are read once the walk is done (reads do not nest), for the items shown.
        var shown: [FeedItem] = []
        try read(database, avatarPath) { item in
            count += 1
            if json { emit(item, links: [:]) } else { shown.append(item) }
        }
        if !shown.isEmpty {
            let links = try database.tweetLinks(FeedItem.linkIDs(shown))
            for item in shown { emit(item, links: links) }
        }
        // The end of the feed: what lies below its oldest post (a first backfill's gap).
        if count < limit { gapsLeft.forEach(showGap) }
        output.flush()
        return count
    }
}
