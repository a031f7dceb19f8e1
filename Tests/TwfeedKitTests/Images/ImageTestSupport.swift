import Foundation
import Logging
@testable import TwfeedKit
import TwfeedTesting
@testable import TwfeedCore
@testable import TwfeedStore

/// A temporary cache folder, an in-memory database, a manual clock and a log.
struct ImageFixture {
    let folder: String
    let store: ImageStore
    let database: AppDatabase
    let clock = ManualClock()
    let sink = MemorySink()
    let logger: Logger

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("twfeed-img-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        store = ImageStore(root: "\(folder)/images")
        database = try AppDatabase.inMemory()
        logger = Logger(label: "test") { [sink] _ in EventLogHandler(level: .debug, format: .logfmt, sink: sink) }
    }

    func remove() { try? FileManager.default.removeItem(atPath: folder) }

    /// Authors as a stored page brings them (their `updatedAt` is the clock's now).
    func storeAuthors(_ authors: [(id: Int64, url: String?)]) async throws {
        let page = TimelinePage(
            tweets: [], authors: authors.map { Author(id: UserID($0.id), username: "u\($0.id)", name: "U \($0.id)", profileImageURL: $0.url) },
            nextPageToken: nil)
        try await database.storePage(page, feed: .home, state: SyncState(feed: .home), now: clock.now())
    }

    func config(_ edit: (inout TwfeedConfig.Images) -> Void = { _ in }) -> TwfeedConfig {
        var config = TwfeedConfig(environment: ["HOME": folder])
        config.storage.imageCache = store.root
        config.images.allowedHosts = ["pbs.twimg.com", "cdn.example"]
        edit(&config.images)
        return config
    }

    /// A PNG-looking body, distinct per seed.
    static func png(_ seed: Int, size: Int = 100) -> [UInt8] {
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + (0 ..< max(0, size - 8)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ seed) }
    }
}
