import Foundation
import TwfeedCore
import TwfeedStore

/// The counts the status shows, read from the database (and the database file's size). Both the
/// daemon's `StatusBoard` (for the snapshot) and `twfeed status` (`StatusReport`, read
/// fresh) read them here, so neither depends on the other.
extension StatusSnapshot.Counts {
    package static func read(
        config: TwfeedConfig,
        database: StoreReader,
        now: Date,
        previous: StatusSnapshot.Counts?,
        full: Bool
    ) throws -> StatusSnapshot.Counts {
        let full = full || previous == nil
        var feeds = previous?.feeds ?? [:]
        if full {
            for feed in Feed.allCases {
                feeds[feed] = StatusSnapshot.FeedCounts(
                    enabled: config.feeds[feed]?.enabled ?? false,
                    stats: try database.feedStats(feed),
                    sync: try database.syncState(feed)
                )
            }
        }
        let (outbox, oldestAge) = try database.outboxCounts(now: now)
        // Two stored numbers (not a walk of the cache folder): read every time.
        let (files, bytes) = try database.imageCacheTotals()
        let path = config.storage.database
        return StatusSnapshot.Counts(
            at: now,
            feeds: feeds,
            outbox: outbox,
            oldestPendingAt: oldestAge.map { now.addingTimeInterval(-$0) },
            imageFiles: files,
            imageBytes: bytes,
            databasePath: path,
            databaseBytes: Self.fileSize(path) + Self.fileSize(path + "-wal"),
            account: try database.account().map { AccountName(id: $0.userID, username: $0.username) },
            spend: try SpendCounts.read(config: config, database: database, now: now)
        )
    }

    static func fileSize(_ path: String) -> Int64 {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : 0
    }

    package static func directorySize(_ path: String) -> (Int, Int64) {
        guard let enumerator = FileManager.default.enumerator(atPath: path) else { return (0, 0) }
        var files = 0
        var bytes: Int64 = 0
        while let name = enumerator.nextObject() as? String {
            var info = stat()
            if stat("\(path)/\(name)", &info) == 0, (info.st_mode & S_IFMT) == S_IFREG {
                files += 1
                bytes += Int64(info.st_size)
            }
        }
        return (files, bytes)
    }
}
