import Foundation
import Logging
import ServiceLifecycle
import TwfeedCore
import TwfeedStore

/// Keeps the image cache (avatars and photos) within `images.maxCacheMB` and in step
/// with the database.
///
/// On start, hourly, and when the fetcher reports the cap exceeded, one sweep:
/// - deletes temporary files that a killed process left behind (never a live writer's,
///   this process's included);
/// - forgets rows whose file is gone (someone emptied the folder): the fetcher gets
///   them again at once;
/// - deletes files no row names (left by a crash between a rename and its commit, or
///   by a picture that changed);
/// - evicts the least recently used files until the cache fits its cap. An evicted
///   author's picture (or photo) is fetched again only once it appears in a newer page, so a
///   cap smaller than the feed cannot make the fetcher and the janitor take turns.
///
/// Only names of the cache's own shape are touched (`ImageStore`).
package struct ImageJanitor: Service {
    package static let interval: Double = 3600

    package let store: ImageStore
    let database: AppDatabase
    let clock: any WallClock
    let capBytes: Int64
    /// Rung by the fetcher when the cache has grown past the cap.
    package let doorbell: Doorbell
    /// Rung after rows lost their file, so the fetchers (avatars, photos) get them again.
    let fetcherBell: Doorbell?
    let photoBell: Doorbell?
    let logger: Logger

    package init(
        store: ImageStore,
        database: AppDatabase,
        clock: any WallClock,
        capBytes: Int64,
        doorbell: Doorbell = Doorbell(),
        fetcherBell: Doorbell? = nil,
        photoBell: Doorbell? = nil,
        logger: Logger
    ) {
        self.store = store
        self.database = database
        self.clock = clock
        self.capBytes = capBytes
        self.doorbell = doorbell
        self.fetcherBell = fetcherBell
        self.photoBell = photoBell
        self.logger = logger
    }

    /// What one sweep did, and the cache it left.
    package struct Report: Sendable, Equatable {
        package var evictedFiles = 0
        package var evictedBytes: Int64 = 0
        /// Rows whose file was gone.
        package var missingFiles = 0
        /// Files no row named.
        package var orphanFiles = 0
        package var temporaryFiles = 0
        package var files = 0
        package var bytes: Int64 = 0
    }

    package func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    try await sweep()
                } catch {
                    logger.error("image.janitor_failed", metadata: ["error": "\(error)"])
                }
                await doorbell.wait(until: clock.now().addingTimeInterval(Self.interval), clock: clock)
            }
        }
    }

    @discardableResult
    package func sweep() async throws -> Report {
        let report = try await store.withLock { try await sweepLocked() }
        if report.missingFiles + report.orphanFiles + report.temporaryFiles > 0 {
            logger.notice(
                "image.repaired",
                metadata: [
                    "missing_files": "\(report.missingFiles)", "orphan_files": "\(report.orphanFiles)",
                    "temporary_files": "\(report.temporaryFiles)",
                ]
            )
        }
        if report.evictedFiles > 0 {
            logger.info(
                "image.evicted",
                metadata: [
                    "files": "\(report.evictedFiles)", "bytes": "\(report.evictedBytes)",
                    "cache_bytes": "\(report.bytes)", "cap_bytes": "\(capBytes)",
                ]
            )
        }
        if report.missingFiles > 0 {
            fetcherBell?.ring()
            photoBell?.ring()
        }
        return report
    }

    /// Runs with the store's lock held: no file is being renamed into place meanwhile.
    private func sweepLocked() async throws -> Report {
        var report = Report()
        let scan = store.scan()
        let me = getpid()
        // Our own are files being staged right now; a dead writer's are leftovers.
        for temporary in scan.temporaries where temporary.pid != me && !ProcessLiveness.isAlive(temporary.pid) {
            store.removeTemporary(temporary.file)
            report.temporaryFiles += 1
        }

        // Rows against files: a file's last use is its most recent user's (author or photo).
        var lastUse: [String: Date] = [:]
        var missing: Set<String> = []
        for row in try await database.imageFileRows() {
            if scan.files[row.file] == nil {
                missing.insert(row.file)
            } else {
                lastUse[row.file] = max(lastUse[row.file] ?? .distantPast, row.lastUsedAt)
            }
        }
        try await database.clearImageFiles(missing.sorted(), evictedAt: nil)
        report.missingFiles = missing.count
        for file in scan.files.keys.sorted() where lastUse[file] == nil {
            store.remove(file)
            report.orphanFiles += 1
        }

        // Least recently used first (ties by name, so a sweep is deterministic).
        var total = lastUse.keys.reduce(Int64(0)) { $0 + scan.files[$1]! }
        if total > capBytes {
            var evicted: [String] = []
            for (file, _) in lastUse.sorted(by: { ($0.value, $0.key) < ($1.value, $1.key) }) {
                guard total > capBytes else { break }
                total -= scan.files[file]!
                report.evictedBytes += scan.files[file]!
                evicted.append(file)
            }
            // The rows first: a crash between leaves orphan files, which the next sweep removes.
            try await database.clearImageFiles(evicted, evictedAt: clock.now())
            evicted.forEach(store.remove)
            report.evictedFiles = evicted.count
        }
        report.files = lastUse.count - report.evictedFiles
        report.bytes = total
        return report
    }
}
