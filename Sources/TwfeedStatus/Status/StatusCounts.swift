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
    ) async throws -> StatusSnapshot.Counts {
        let full = full || previous == nil
        let stored = try await database.storedCounts(SpendCounts.request(config: config, now: now, feeds: full))
        return StatusSnapshot.Counts(config: config, stored: stored, now: now, previous: previous)
    }

    /// The counts from one read of the store (`StoredCounts`): a feed's come from
    /// `previous` when the store was not asked to count them.
    package init(config: TwfeedConfig, stored: StoredCounts, now: Date, previous: StatusSnapshot.Counts?) {
        var feeds = previous?.feeds ?? [:]
        for (feed, entry) in stored.feeds {
            feeds[feed] = StatusSnapshot.FeedCounts(enabled: config.feeds[feed]?.enabled ?? false, stats: entry.stats, sync: entry.sync)
        }
        let path = config.storage.database
        self.init(
            at: now,
            feeds: feeds,
            outbox: stored.outbox,
            oldestPendingAt: stored.oldestPendingAge.map { now.addingTimeInterval(-$0) },
            imageFiles: stored.imageFiles,
            imageBytes: stored.imageBytes,
            databasePath: path,
            databaseBytes: Self.fileSize(path) + Self.fileSize(path + "-wal"),
            account: stored.account.map { AccountName(id: $0.userID, username: $0.username) },
            spend: SpendCounts(config: config, stored: stored, now: now)
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
