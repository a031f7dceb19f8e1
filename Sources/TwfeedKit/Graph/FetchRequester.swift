import Foundation
import Logging
import TwfeedCore
import TwfeedStatus
import TwfeedStore

/// The reader's door to the fetch queue (`ReaderFetches`): writes the ids a page shows
/// as "not fetched yet", then rings the fetcher (the daemon's doorbell, or its wake
/// socket from `twfeed serve`).
package final class FetchRequester: ReaderFetches {
    private let database: @Sendable () throws -> AppDatabase
    private let clock: any WallClock
    private let wake: @Sendable () -> Void
    private let logger: Logger

    /// In the daemon: its own writer (a request needs no fsync of its own).
    package init(database: AppDatabase, clock: any WallClock, logger: Logger, wake: @escaping @Sendable () -> Void) {
        self.database = { database }
        self.clock = clock
        self.logger = logger
        self.wake = wake
    }

    /// In `twfeed serve`: a writer opened at the first fault someone looks at.
    package init(path: String, clock: any WallClock, logger: Logger, wake: @escaping @Sendable () -> Void) {
        let writer = LazyWriter(path: path, durable: false)
        database = { try writer.database() }
        self.clock = clock
        self.logger = logger
        self.wake = wake
    }

    package func request(_ ids: [TweetID]) async {
        guard !ids.isEmpty else { return }
        do {
            let added = try await database().requestFetch(ids, reason: .asked, now: clock.now())
            if added > 0 { wake() }
        } catch {
            // The page still shows what is stored; the next look asks again.
            logger.warning("fetch.request_failed", metadata: ["error": "\((error as? TwfeedError)?.message ?? "\(error)")"])
        }
    }
}
