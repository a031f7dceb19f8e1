import ArgumentParser
import Foundation
import TwfeedBase
import TwfeedCore
import TwfeedKit
import TwfeedStore

struct OutboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "outbox",
        abstract: "Show and manage the queue of statuses.",
        subcommands: [List.self, Retry.self, Cancel.self],
        defaultSubcommand: List.self
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Every queued status and what became of it.")

        @OptionGroup var options: GlobalOptions

        @Flag(help: "One JSON object per line.")
        var json = false

        func run() async throws {
            try await CommandLineEdge.run {
                let config = try options.loadConfig()
                guard FileManager.default.fileExists(atPath: config.storage.database) else { return }
                let database = try StoreReader.open(path: config.storage.database)
                let items = try await database.outboxItems()
                let terms = BillingTerms(config.api)
                let now = Date()
                for item in items {
                    if json {
                        // What it costs (or cost) to post or delete, at today's prices.
                        let cost =
                            item.kind == .delete
                            ? terms.prices.postDelete
                            : try await terms.postPricing(text: item.text, replyTo: item.replyToID, database: database).price
                        var object = item.json
                        if case .object(var fields) = object {
                            fields["costUSD"] = .number(cost.decimalString)
                            object = .object(fields)
                        }
                        emit(object.serialized)
                    } else {
                        emit(OutboxLine.text(item, now: now))
                    }
                }
            }
        }
    }

    struct Retry: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Queue a failed or expired status again; its age counts from now.")

        @OptionGroup var target: OutboxTarget

        func run() async throws {
            try await target.change { config, database, id in
                let item = try await database.retryOutbox(id, now: Date())
                WakeSocket.send(to: WakeSocket.path(config: config))
                // One that may have gone out is looked up among the account's tweets
                // before it is sent again (AppDatabase.retryOutbox).
                emit(
                    item.state == .uncertain
                        ? "#\(item.id) may have gone out already; the daemon looks for it among your tweets before sending it again"
                        : "#\(item.id) is pending again"
                )
            }
        }
    }

    struct Cancel: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Withdraw a pending status.")

        @OptionGroup var target: OutboxTarget

        func run() async throws {
            try await target.change { _, database, id in
                let item = try await database.cancelOutbox(id)
                emit("#\(item.id) is cancelled")
            }
        }
    }
}

/// What `outbox retry` and `outbox cancel` share: the global options, the status's id,
/// and a durable writer opened on the config's database, so the two commands differ
/// only in the one transition they ask of the store.
struct OutboxTarget: ParsableArguments {
    @OptionGroup var options: GlobalOptions

    @Argument(help: "The status's id, as outbox list shows it.")
    var id: Int64

    func change(_ body: (TwfeedConfig, AppDatabase, Int64) async throws -> Void) async throws {
        try await CommandLineEdge.run {
            let config = try options.loadConfig()
            try await body(config, try AppDatabase.open(path: config.storage.database, durable: true), id)
        }
    }
}
