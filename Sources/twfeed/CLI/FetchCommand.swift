import ArgumentParser
import Foundation
import TwfeedCore
import TwfeedKit
import TwfeedStore

/// `twfeed fetch ID...`: asks the running daemon to fetch these posts (a look, so they
/// go before the prefetch), within the budget. The requests are written to the store
/// and the daemon is rung; without a daemon they wait for it, and the exit is 69.
struct FetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Ask the running daemon to fetch posts by id (as lookups, within the budget).",
        discussion: "Exit 0 when queued for a running daemon, 69 when no daemon runs, 64 for an id that is not one."
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The posts' ids.")
    var ids: [String]

    func validate() throws {
        guard !ids.isEmpty else { throw ValidationError("name at least one post id") }
        for id in ids where TweetID(id) == nil {
            throw ValidationError("\(id) is not a tweet id (a positive whole number)")
        }
    }

    func run() async throws {
        try await CommandLineEdge.run {
            let config = try options.loadConfig()
            let ids = ids.compactMap(TweetID.init)
            let database = try AppDatabase.open(path: config.storage.database)
            let added = try await database.requestFetch(ids, reason: .asked, now: Date())
            guard WakeSocket.send(to: WakeSocket.path(config: config)) else {
                throw TwfeedError(.unavailable, "no daemon runs: the \(ids.count == 1 ? "post waits" : "posts wait") for twfeed run to fetch")
            }
            let skipped = Set(ids).count - added
            emit(
                "asked the daemon for \(added) post\(added == 1 ? "" : "s")"
                    + (skipped > 0 ? " (\(skipped) already stored, asked for, or gone within a day)" : "")
            )
        }
    }
}
