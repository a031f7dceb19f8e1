import ArgumentParser
import Foundation
import TwfeedBase
import TwfeedCore
import TwfeedStore

/// `twfeed gaps`: the ranges the budget made a feed skip, so nothing is missing in silence.
struct GapsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gaps",
        abstract: "The ranges of each feed not read because the budget ran out (read them with twfeed fill)."
    )

    @OptionGroup var options: GlobalOptions

    @Flag(help: "One JSON object per line.")
    var json = false

    func run() async throws {
        let gaps = try await CommandLineEdge.run {
            let config = try options.loadConfig()
            guard FileManager.default.fileExists(atPath: config.storage.database) else { return [FeedGap]() }
            return try await StoreReader.open(path: config.storage.database).gaps()
        }
        if json {
            if !gaps.isEmpty { emit(gaps.map(FeedGapPresenter.listJSON).joined(separator: "\n")) }
        } else if gaps.isEmpty {
            emit("no gaps: every feed was read in full")
        } else {
            emit(
                gaps.map { gap in
                    "\(gap.feed.rawValue)\t\(gap.reachesBack ? "" : "\(gap.newerThanID) < ")id < \(gap.olderThanID)\t\(gap.reason.rawValue)\t"
                        + Timestamp.iso8601(gap.recordedAt)
                }.joined(separator: "\n")
            )
        }
    }
}
