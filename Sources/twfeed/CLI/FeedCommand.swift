import ArgumentParser
import Foundation
import TwfeedKit

extension Feed: ExpressibleByArgument {}

struct FeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "feed", abstract: "Show cached tweets, newest first. Works offline.")

    @OptionGroup var options: GlobalOptions

    @Argument(help: "home, mentions or retweets")
    var feed: Feed

    @OptionGroup var list: TweetListOptions

    func run() async throws {
        try await CommandLineEdge.run {
            try list.show(config: try options.loadConfig()) { database, avatarPath in
                try database.feedItems(feed, limit: list.limit, avatarPath: avatarPath)
            }
        }
    }
}
