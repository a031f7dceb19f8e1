import Foundation
import Logging
import TwfeedCore
import TwfeedStore

/// What the avatar and photo fetchers share: the policy every URL passes, the
/// downloader, the content-addressed cache written together with its row, and the
/// janitor's bell when the cache has grown past `images.maxCacheMB`. Each fetcher keeps
/// its own candidates, rows and log events.
package struct ImageFetchCore: Sendable {
    let store: ImageStore
    let policy: ImagePolicy
    let database: AppDatabase
    let clock: any WallClock
    let downloader: ImageDownloader
    let logger: Logger
    let concurrency: Int
    let capBytes: Int64
    /// Rung when the cache has grown past its cap.
    let janitorBell: Doorbell?
    /// `images.revalidateDays` in seconds: the avatars' (a photo's URL names its bytes for good).
    let revalidateSeconds: Double

    package init(
        config: TwfeedConfig,
        database: AppDatabase,
        store: ImageStore,
        clock: any WallClock,
        transport: any APITransport = CurlTransport(),
        janitorBell: Doorbell? = nil,
        logger: Logger
    ) {
        self.store = store
        policy = ImagePolicy(config.images)
        self.database = database
        self.clock = clock
        downloader = ImageDownloader(policy: policy, transport: transport, timeoutSeconds: config.images.timeoutSeconds)
        self.logger = logger
        concurrency = max(1, config.images.concurrency)
        capBytes = Int64(config.images.maxCacheMB) << 20
        revalidateSeconds = config.images.revalidateDays * 86_400
        self.janitorBell = janitorBell
    }

    /// `url` checked by the policy (a refusal is an outcome, not a request), else
    /// downloaded; with the HTTP requests it took, redirects included.
    func download(_ url: String, validators: (etag: String?, lastModified: String?)?) async throws -> (ImageDownloader.Outcome, Int) {
        switch policy.check(url) {
        case .failure(let violation): (.rejected(violation.rawValue, url), 0)
        case .success(let checked): try await downloader.download(checked, validators: validators)
        }
    }

    /// Writes `body` into the cache and names it by its row (`ImageStore.install`).
    func install(_ body: [UInt8], format: ImageFormat, record: (_ file: String) async throws -> String?) async throws -> Bool {
        try await store.install(body, format: format, record: record)
    }

    /// A row changed under the cache's lock; the file it named before, when no row
    /// names it any more, goes.
    func record(_ change: () async throws -> String?) async throws {
        try await store.withLock {
            if let orphan = try await change() { store.remove(orphan) }
        }
    }

    /// After a pass that wrote files: the janitor is rung when the cache is past its cap.
    func ringJanitorIfFull(written: Int) async throws {
        if written > 0, let janitorBell, try await database.imageCacheTotals().bytes > capBytes {
            janitorBell.ring()
        }
    }

    /// Milliseconds since `start`, for the log.
    func milliseconds(since start: Date) -> String { "\(Int(clock.now().timeIntervalSince(start) * 1000))" }
}
