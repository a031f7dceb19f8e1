import ArgumentParser
import Foundation
import TwfeedCore
import TwfeedKit

struct SearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search cached tweets (text, author username and name), newest first. Works offline.",
        discussion: """
            QUERY: words (all must match; case and accents do not matter), "a phrase", \
            from:username (several from: match any of them). Exit 64 for a query that cannot be parsed.
            """
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: "Words, \"a phrase\", from:username.")
    var query: String

    @Option(help: "Only this feed: home, mentions, retweets, posts or likes.")
    var feed: Feed?

    @OptionGroup var list: TweetListOptions

    func run() async throws {
        try await CommandLineEdge.run {
            // The query first: a typo is reported the same with or without a database.
            let parsed = try SearchQuery(parsing: query)
            let shown = try await list.show(config: try options.loadConfig()) { database, avatarPath, listing in
                var listing = listing
                for item in try await database.search(parsed, feed: feed, limit: list.limit, avatarPath: avatarPath) { listing.take(item) }
                return listing
            }
            // Said on stderr, so stdout (and --json's, which stays empty) holds posts only.
            if shown == 0 && !list.json {
                CommandLineEdge.printNote("no matches for \(query)" + (feed.map { " in \($0.rawValue)" } ?? ""))
            }
        }
    }
}
