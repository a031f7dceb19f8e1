import ArgumentParser
import Foundation
import TwfeedCore
import TwfeedKit
import TwfeedStore

/// `twfeed show ID`: a post with its conversation, from the store, offline: the posts
/// above it up to the root, and the replies stored below it. A post above that is not
/// stored is shown as not fetched yet, with its id.
struct ShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show a cached post with its conversation. Works offline.",
        discussion: "Exit 69 when the post is not stored, 64 for an id that is not one."
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The post's id.")
    var id: String

    @Flag(help: "One JSON object: {\"tweet\", \"ancestors\", \"replies\"}.")
    var json = false

    func validate() throws {
        guard TweetID(id) != nil else { throw ValidationError("\(id) is not a tweet id (a positive whole number)") }
    }

    func run() async throws {
        try await CommandLineEdge.run {
            let config = try options.loadConfig()
            let id = TweetID(self.id)!
            guard FileManager.default.fileExists(atPath: config.storage.database) else {
                throw TwfeedError(.unavailable, "post \(id) is not stored: \(config.storage.database) does not exist (start twfeed run)")
            }
            let database = try StoreReader.open(path: config.storage.database)
            let images = ImageStore(root: config.storage.imageCache)
            guard let conversation = try await database.conversation(id, avatarPath: images.cachedPath) else {
                let asked = await Self.askDaemon(for: [id], config: config)
                // Gone by the API's word: not fetched again within a day, so no "in a moment".
                if let reason = try await database.unavailableReasons([id])[id] {
                    throw TwfeedError(.unavailable, "post \(id) is not stored: unavailable (\(reason))")
                }
                throw TwfeedError(
                    .unavailable,
                    "post \(id) is not stored"
                        + (asked ? "; the daemon fetches it: run twfeed show \(id) again in a moment" : "; no daemon runs to fetch it")
                )
            }
            // What it lacks above, and what its posts point at, is asked for when a daemon runs.
            let missing = conversation.ancestors.compactMap { if case .missing(let id, nil) = $0 { id } else { nil } }
            let faults = missing + ([conversation.tweet] + conversation.replies).flatMap(\.faults)
            if !faults.isEmpty { await Self.askDaemon(for: faults, config: config) }
            if json {
                // Each post as `feed --json` writes it (INTERFACE.md, "Conversations, photos, long posts").
                var out: [UInt8] = []
                conversation.appendJSON(to: &out)
                emit(String(decoding: out, as: UTF8.self))
            } else {
                // Links show where they lead, as in the reader and in a reply's excerpt.
                let stored = conversation.ancestors.compactMap { if case .stored(let item) = $0 { item } else { nil } }
                let links = try await database.tweetLinks(FeedItem.linkIDs(stored + [conversation.tweet] + conversation.replies))
                // Root first; each post below the first has its parent just above it.
                for (index, ancestor) in conversation.ancestors.reversed().enumerated() {
                    switch ancestor {
                    case .stored(let item): emit(FeedPresenter.text(item, links: links, parentAbove: index > 0))
                    case .missing(let id, let unavailable):
                        emit("post \(id): " + (unavailable.map { "unavailable (\($0))" } ?? "not fetched yet"))
                    }
                    emit("  |")
                }
                emit(FeedPresenter.text(conversation.tweet, links: links, parentAbove: !conversation.ancestors.isEmpty))
                for reply in conversation.replies {
                    emit("  \\-- " + FeedPresenter.text(reply, links: links).replacingOccurrences(of: "\n", with: "\n      "))
                }
            }
        }
    }

    /// Queues a fetch of `ids` when a daemon runs (a look: before the prefetch); true when
    /// one does. Without a daemon nothing is written: `show` stays a reader.
    @discardableResult
    static func askDaemon(for ids: [TweetID], config: TwfeedConfig) async -> Bool {
        let path = WakeSocket.path(config: config)
        // A datagram only makes the daemon look: the first one finds out whether one runs.
        guard WakeSocket.send(to: path) else { return false }
        guard (try? await AppDatabase.open(path: config.storage.database).requestFetch(ids, reason: .asked, now: Date())) != nil else { return false }
        return WakeSocket.send(to: path)
    }
}
