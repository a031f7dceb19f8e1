import ArgumentParser
import Foundation
import TwfeedKit

struct SearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search cached tweets (text, author username and name), newest first. Works offline.",
        discussion: """
            QUERY: words (all must match; case and accents do not matter), "a phrase", \
            from:username (several from: match any of them). Exit 64 for a query that cannot be parsed.
            """)

    @OptionGroup var options: GlobalOptions

    @Argument(help: "Words, \"a phrase\", from:username.")
    var query: String

    @Option(help: "Only this feed: home, mentions or retweets.")
    var feed: Feed?

    @Option(help: "How many tweets to show.")
    var limit: Int = 20

    @Flag(help: "One JSON object per line, as feed --json.")
    var json = false

    func validate() throws {
        guard limit > 0 else { throw ValidationError("--limit must be at least 1") }
    }

    func run() async throws {
        try await CommandLineEdge.run {
            // The query first: a typo is reported the same with or without a database.
            let parsed = try SearchQuery(parsing: query)
            let config = try options.loadConfig()
            guard FileManager.default.fileExists(atPath: config.storage.database) else {
                CommandLineEdge.printError("no tweets cached yet: \(config.storage.database) does not exist (start twfeed run)")
                return
            }
            let database = try AppDatabase.openReader(path: config.storage.database)
            let images = ImageStore(root: config.storage.imageCache)
            let items = try database.search(parsed, feed: feed, limit: limit) { images.exists($0) ? images.path(of: $0) : nil }
            for item in items {
                emit(json ? FeedPresenter.json(item).serialized : FeedPresenter.text(item))
            }
        }
    }
}
