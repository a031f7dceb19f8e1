import ArgumentParser
import Foundation
import TwfeedKit

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
    /// tweets `read` gets from it, newest first as given.
    ///
    /// - Parameter read: gets the database and the avatar lookup that turns a cached
    ///   image's name into its path (nil when not on disk).
    func show(config: TwfeedConfig, _ read: (AppDatabase, _ avatarPath: (String) -> String?) throws -> [FeedItem]) throws {
        guard FileManager.default.fileExists(atPath: config.storage.database) else {
            CommandLineEdge.printError("no tweets cached yet: \(config.storage.database) does not exist (start twfeed run)")
            return
        }
        let database = try AppDatabase.openReader(path: config.storage.database)
        let images = ImageStore(root: config.storage.imageCache)
        for item in try read(database, { images.exists($0) ? images.path(of: $0) : nil }) {
            emit(json ? FeedPresenter.json(item).serialized : FeedPresenter.text(item))
        }
    }
}
