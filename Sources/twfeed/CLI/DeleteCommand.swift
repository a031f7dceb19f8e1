import ArgumentParser
import Foundation
import TwfeedCore
import TwfeedKit
import TwfeedStore

struct DeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Queue the deletion of one of your posts; the daemon sends it once.",
        discussion: """
            Exit 65 for a post that is not yours (or not stored), already deleted, or a status still queued \
            (withdraw that with twfeed outbox cancel). Priced by api.prices.postDelete.
            """
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The post's id.")
    var id: String

    @Flag(name: .customLong("dry-run"), help: "Only say what the deletion costs; queue nothing.")
    var dryRun = false

    @Flag(help: "Print JSON.")
    var json = false

    func validate() throws {
        if TweetID(id) == nil { throw ValidationError("delete: \(id) is not a tweet id (a positive whole number)") }
    }

    func run() async throws {
        try await CommandLineEdge.run {
            let tweetID = TweetID(id)!
            let config = try options.loadConfig()
            let price = config.api.prices.postDelete
            let money = config.api.billsRealMoney ? "" : " (\(TwfeedConfig.API.playMoneyNote))"
            if dryRun {
                emit(
                    json
                        ? JSONValue.object(["tweetId": .string(tweetID.description), "costUSD": .number(price.decimalString)]).serialized
                        : "deleting post \(tweetID) costs \(price.formatted)\(money)"
                )
                return
            }
            guard FileManager.default.fileExists(atPath: config.storage.database) else {
                throw TwfeedError(.invalidData, "delete \(tweetID): no such post of yours is stored (\(config.storage.database) does not exist yet)")
            }
            // FULL sync: once this command returns, the deletion survives a power loss.
            let database = try AppDatabase.open(path: config.storage.database, durable: true)
            let item = try await database.enqueueDeletion(of: tweetID, now: Date())
            let woke = WakeSocket.send(to: WakeSocket.path(config: config))
            if json {
                emit(
                    JSONValue.object([
                        "id": .string(String(item.id)), "state": .string(item.state.rawValue), "kind": .string(item.kind.rawValue),
                        "tweetId": .string(tweetID.description), "costUSD": .number(price.decimalString),
                    ]).serialized
                )
            } else {
                emit(
                    "queued the deletion of post \(tweetID) as #\(item.id) "
                        + "(\(DraftChecks.whenNote(nil, now: Date(), woke: woke))); it will cost \(price.formatted)\(money)"
                )
            }
        }
    }
}
