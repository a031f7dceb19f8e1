import ArgumentParser
import Foundation
import TwfeedCore
import TwfeedKit

extension Feed: ExpressibleByArgument {}

struct FeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "feed", abstract: "Show cached tweets, newest first. Works offline.")

    @OptionGroup var options: GlobalOptions

    @Argument(help: "home, mentions, retweets, or posts and likes (your imported archive)")
    var feed: Feed

    @OptionGroup var list: TweetListOptions

    @Option(parsing: .unconditional, help: ArgumentHelp("Only tweets older than this id: pass the last id shown to page back.", valueName: "ID"))
    var before: String?

    func validate() throws {
        if let before, TweetID(before) == nil {
            throw ValidationError("--before: \(before) is not a tweet id (a positive whole number)")
        }
    }

    func run() async throws {
        try await CommandLineEdge.run {
            let below = before.flatMap(TweetID.init)
            try await list.show(
                config: try options.loadConfig(),
                gaps: { database in try await database.gaps(feed).filter { below == nil || $0.newerThanID < below! } }
            ) { database, avatarPath, listing in
                try await database.forEachFeedItem(
                    feed,
                    limit: list.limit,
                    before: below,
                    avatarPath: avatarPath,
                    into: listing
                ) { listing, item in listing.take(item) }
            }
        }
    }
}
