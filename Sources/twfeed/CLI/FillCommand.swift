import ArgumentParser
import Foundation
import TwfeedBilling
import TwfeedCore
import TwfeedKit
import TwfeedStore

/// `twfeed fill FEED --max-usd X`: asks the running daemon to read a feed's gaps, newest
/// first, spending at most X (and never past the cycle's budget). The daemon reads; this
/// command only asks, so it returns at once.
struct FillCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fill",
        abstract: "Ask the running daemon to read a feed's gaps within a spend."
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: "home, mentions or retweets", completion: .list(Feed.polled.map(\.rawValue)))
    var feed: Feed

    @Option(name: .customLong("max-usd"), help: ArgumentHelp("The most to spend on it, in US dollars.", valueName: "X"))
    var maxUSD: String

    func validate() throws {
        guard feed.isPolled else { throw ValidationError("\(feed.rawValue) is imported from your archive, never read from the API: it has no gaps") }
        guard let amount = try? MicroUSD(parsing: maxUSD), amount.micros > 0 else {
            throw ValidationError("--max-usd: \(maxUSD) is not an amount of dollars above 0 (such as 0.50)")
        }
    }

    func run() async throws {
        try await CommandLineEdge.run {
            let config = try options.loadConfig()
            let amount = try MicroUSD(parsing: maxUSD)
            guard FileManager.default.fileExists(atPath: config.storage.database) else {
                throw TwfeedError(.unavailable, "no daemon has run here: \(config.storage.database) does not exist (start twfeed run)")
            }
            let notRunning = TwfeedError(.unavailable, "the daemon is not running: start twfeed run, then ask again")
            let database = try AppDatabase.open(path: config.storage.database)
            let gaps = try await database.gaps(feed)
            guard !gaps.isEmpty else {
                // Asked of the daemon: with none running that is what to say (69), even when
                // there is nothing to read. A wake only makes a running one look, and find nothing.
                guard WakeSocket.send(to: WakeSocket.path(config: config)) else { throw notRunning }
                emit("\(feed.rawValue) has no gaps: nothing to read")
                return
            }
            try await database.requestFill(feed, maxSpend: amount, now: Date())
            guard WakeSocket.send(to: WakeSocket.path(config: config)) else {
                // Nobody will read it: a daemon started later must not spend on it unasked.
                try await database.dropFillRequest(feed)
                throw notRunning
            }
            emit("asked the daemon to read \(gaps.count) gap\(gaps.count == 1 ? "" : "s") of \(feed.rawValue), spending at most \(amount.formatted)")
        }
    }
}
