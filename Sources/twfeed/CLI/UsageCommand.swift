import ArgumentParser
import Foundation
import TwfeedCore
import TwfeedReader
import TwfeedStore

/// `twfeed usage`: what the API has charged, from twfeed's own ledger (the API offers no
/// dependable balance to ask).
struct UsageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "usage",
        abstract: "What the X API has charged: this billing cycle and the last days, per source."
    )

    @OptionGroup var options: GlobalOptions

    @Option(help: "How many UTC days to list, today included (1-366).")
    var days = 7

    @Flag(help: "One JSON object.")
    var json = false

    func validate() throws {
        guard (1...366).contains(days) else { throw ValidationError("--days must be from 1 to 366, not \(days)") }
    }

    func run() async throws {
        let report = try await CommandLineEdge.run {
            let config = try options.loadConfig()
            guard FileManager.default.fileExists(atPath: config.storage.database) else {
                throw TwfeedError(.unavailable, "nothing spent yet: \(config.storage.database) does not exist (start twfeed run)")
            }
            return try await UsageReport.read(
                config: config,
                database: StoreReader.open(path: config.storage.database),
                now: Date(),
                days: days
            )
        }
        emit(json ? report.json.serialized : report.table)
    }
}
