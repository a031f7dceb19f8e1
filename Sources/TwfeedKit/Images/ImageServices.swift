import Foundation
import Logging
import TwfeedCore
import TwfeedStore

/// The fetcher and the janitor, wired to one store and to each other's doorbells, as
/// `Daemon.build` appends them when `images.enabled`.
package enum ImageServices {
    package static func make(
        config: TwfeedConfig,
        database: AppDatabase,
        clock: any WallClock,
        logger: Logger,
        transport: (any APITransport)? = nil
    ) -> (fetcher: ImageFetcher, janitor: ImageJanitor) {
        let store = ImageStore(root: config.storage.imageCache)
        let fetcherBell = Doorbell()
        let janitorBell = Doorbell()
        // Its own transport: its own easy handles and threads, so a slow image host never
        // holds up an API request.
        let fetcher = ImageFetcher(
            config: config,
            database: database,
            store: store,
            clock: clock,
            transport: transport ?? CurlTransport(userAgent: "twfeed/1.0 (images)"),
            doorbell: fetcherBell,
            janitorBell: janitorBell,
            logger: logger
        )
        let janitor = ImageJanitor(
            store: store,
            database: database,
            clock: clock,
            capBytes: Int64(config.images.maxCacheMB) << 20,
            doorbell: janitorBell,
            fetcherBell: fetcherBell,
            logger: logger
        )
        return (fetcher, janitor)
    }
}
