import ArgumentParser
import Foundation
import TwfeedBase
import TwfeedBilling
import TwfeedCore
import TwfeedKit
import TwfeedStore
import TwitterText

struct PostCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "post",
        abstract: "Validate a status and queue it; the daemon sends it when it can.",
        discussion: """
            Works offline and with the daemon stopped. Exit 65 when the status is empty or too long, or a photo is \
            not a JPEG, PNG, WebP or still GIF, is over 5 MB or has alt text over 1,000 characters; 64 for more than \
            4 photos, a malformed --at, or --photo with api.dialect v1.1. --photo FILE=ALT: the file is the longest \
            part before an = that names an existing file, so a path may hold = itself.
            """
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The status, or - to read it from standard input.")
    var text: String

    @Option(name: .customLong("reply-to"), parsing: .unconditional, help: "The id of the tweet this status answers.")
    var replyTo: String?

    @Option(
        name: .customLong("photo"),
        parsing: .unconditionalSingleValue,
        help: ArgumentHelp("A photo to attach (up to 4), with its alt text after =.", valueName: "FILE[=ALT]"),
        completion: .file()
    )
    var photos: [String] = []

    @Option(
        name: .customLong("at"),
        parsing: .unconditional,
        help: ArgumentHelp("Not sent before this time: ISO 8601 with an offset (2026-12-01T09:00:00+01:00).", valueName: "TIME")
    )
    var at: String?

    @Flag(name: .customLong("dry-run"), help: "Only measure the status; queue nothing.")
    var dryRun = false

    @Flag(help: "Print JSON.")
    var json = false

    func validate() throws {
        if let replyTo, TweetID(replyTo) == nil {
            throw ValidationError("--reply-to must be a tweet id (digits), not \"\(replyTo)\"")
        }
        try DraftChecks.asUsage {
            try PhotoValidator.checkCount(photos.count)
            if let at { _ = try SendTime.parse(at) }
        }
    }

    func run() async throws {
        let status = try readStatus()
        let arguments = photos.map { PhotoArgument($0) }
        if dryRun {
            // Without a config it still measures and prices; with one, a dialect that cannot
            // carry photos refuses them here as queuing would (64, naming `api.dialect`).
            let config = try? options.loadConfig()
            // A photo the post could not carry is one line naming it, as when queuing.
            let drafts = try await CommandLineEdge.run {
                if let config { try DraftChecks.asUsage { try DraftChecks.requirePhotoDialect(config, photos: arguments.count) } }
                return try DraftChecks.photos(arguments)
            }
            let length = TweetLengthCounter.measure(status)
            let postable = (try? PostValidator.validate(status)) != nil
            let pricing = try await CommandLineEdge.run { try await price(status, config: config) }
            if json {
                // `valid` is twitter-text's verdict; `postable` adds twfeed's own rule
                // (no blank statuses), and the exit status follows it.
                emit(
                    JSONValue.object([
                        "weightedLength": .number(String(length.weightedLength)),
                        "valid": .bool(length.valid),
                        "permillage": .number(String(length.permillage)),
                        "maxWeightedLength": .number(String(length.maxWeightedLength)),
                        "postable": .bool(postable),
                        "costUSD": .number(pricing.price.decimalString),
                        "hasURL": .bool(pricing.hasURL),
                        // X publishes no price for a photo's upload.
                        "mediaCostUSD": .null,
                        "photos": .number(String(drafts.count)),
                    ]).serialized
                )
            } else {
                emit(
                    "\(length.weightedLength)/\(length.maxWeightedLength) characters: \(postable ? "valid" : "not valid"); "
                        + "posting it costs \(pricing.price.formatted)\(pricing.reason)\(DraftChecks.photoNote(drafts.count))"
                )
            }
            if !postable { throw ExitCode(TwfeedError.Code.invalidData.exitCode) }
            return
        }
        try await CommandLineEdge.run {
            _ = try PostValidator.validate(status)
            let config = try options.loadConfig()
            try DraftChecks.asUsage { try DraftChecks.requirePhotoDialect(config, photos: arguments.count) }
            let now = Date()
            let notBefore = try DraftChecks.sendTime(at, config: config, now: now)
            let drafts = try DraftChecks.photos(arguments)
            // FULL sync: once this command returns, the status survives a power loss.
            let database = try AppDatabase.open(path: config.storage.database, durable: true)
            let pricing = try await BillingTerms(config.api).postPricing(
                text: status,
                replyTo: replyTo.flatMap(TweetID.init),
                database: database
            )
            let draft = StatusDraft(text: status, photos: drafts, replyTo: replyTo.flatMap(TweetID.init), notBefore: notBefore)
            let item = try await database.enqueue(draft, now: now)
            let woke = WakeSocket.send(to: WakeSocket.path(config: config))
            if json {
                emit(
                    JSONValue.object([
                        "id": .string(String(item.id)), "state": .string(item.state.rawValue),
                        "costUSD": .number(pricing.price.decimalString), "hasURL": .bool(pricing.hasURL),
                        "mediaCostUSD": .null, "photos": .number(String(item.photos.count)),
                        "notBefore": item.notBefore.map { .string(Timestamp.iso8601($0)) } ?? .null,
                    ]).serialized
                )
            } else {
                emit(
                    "queued #\(item.id) (\(DraftChecks.whenNote(item.notBefore, now: now, woke: woke))); "
                        + "it will cost \(pricing.price.formatted)\(pricing.reason)\(DraftChecks.photoNote(item.photos.count))"
                        + (config.api.billsRealMoney ? "" : " (\(TwfeedConfig.API.playMoneyNote))")
                )
            }
        }
    }

    /// What posting `status` costs. A dry run works without a config or a database: it
    /// then prices at the published rates, and a reply counts as summoned only when the
    /// store holds the post replied to among the mentions.
    private func price(_ status: String, config: TwfeedConfig?) async throws -> PostPricing {
        let terms = config.map { BillingTerms($0.api) } ?? BillingTerms()
        guard let config, let replyTo = replyTo.flatMap(TweetID.init),
            FileManager.default.fileExists(atPath: config.storage.database)
        else {
            return PostPricing(text: status, summoned: false, prices: terms.prices)
        }
        let database = try StoreReader.open(path: config.storage.database)
        return try await terms.postPricing(text: status, replyTo: replyTo, database: database)
    }

    private func readStatus() throws -> String {
        guard text == "-" else { return text }
        let data = FileHandle.standardInput.readDataToEndOfFile()
        guard var string = String(data: data, encoding: .utf8) else {
            CommandLineEdge.printError("standard input is not UTF-8 text")
            throw ExitCode(TwfeedError.Code.invalidData.exitCode)
        }
        // `echo text | twfeed post -` adds one newline the user did not mean to post.
        if string.hasSuffix("\n") { string.removeLast() }
        return string
    }
}
