import ArgumentParser
import Foundation
import TwfeedKit

extension Feed: ExpressibleByArgument {}

struct FeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "feed", abstract: "Show cached tweets, newest first. Works offline.")

    @OptionGroup var options: GlobalOptions

    @Argument(help: "home, mentions or retweets")
    var feed: Feed

    @Option(help: "How many tweets to show.")
    var limit: Int = 20

    @Option(help: ArgumentHelp("Only tweets older than this id: pass the last id shown to page back.", valueName: "ID"))
    var before: String?

    @Flag(help: "One JSON object per line.")
    var json = false

    func validate() throws {
        guard limit > 0 else { throw ValidationError("--limit must be at least 1") }
        if let before, TweetID(before) == nil {
            throw ValidationError("--before: \(before) is not a tweet id (a positive whole number)")
        }
    }

    func run() async throws {
        try await CommandLineEdge.run {
            let config = try options.loadConfig()
            guard FileManager.default.fileExists(atPath: config.storage.database) else {
                CommandLineEdge.printError("no tweets cached yet: \(config.storage.database) does not exist (start twfeed run)")
                return
            }
            let database = try AppDatabase.openReader(path: config.storage.database)
            let images = ImageStore(root: config.storage.imageCache)
            let items = try database.feedItems(feed, limit: limit, before: before.flatMap(TweetID.init)) { images.exists($0) ? images.path(of: $0) : nil }
            for item in items {
                emit(json ? FeedPresenter.json(item).serialized : FeedPresenter.text(item))
            }
        }
    }
}
