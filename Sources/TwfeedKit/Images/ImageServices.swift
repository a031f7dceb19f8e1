import Foundation
import Logging
import TwfeedCore
import TwfeedStore

/// The avatar fetcher, the photo fetcher (`images.photos`) and the janitor, wired to one
/// store and to each other's doorbells, as `Daemon.build` appends them when `images.enabled`.
package enum ImageServices {
    package static func make(
        config: TwfeedConfig,
        database: AppDatabase,
        clock: any WallClock,
        logger: Logger,
        transport: (any APITransport)? = nil
    ) -> (fetcher: ImageFetcher, photos: PhotoFetcher?, janitor: ImageJanitor) {
        let store = ImageStore(root: config.storage.imageCache)
        let fetcherBell = Doorbell()
        let janitorBell = Doorbell()
        // Its own transport: its own easy handles and threads, so a slow image host never
        // holds up an API request.
        let fetcher = ImageFetcher(
            ImageFetchCore(
                config: config,
                database: database,
                store: store,
                clock: clock,
                transport: transport ?? CurlTransport(userAgent: "twfeed/1.0 (images)"),
                janitorBell: janitorBell,
                logger: logger
            ),
            doorbell: fetcherBell
        )
        // Beside the avatars, on a transport of its own: a page of photos never holds up
        // the avatars of the next page's authors.
        let photos =
            config.images.photos
            ? PhotoFetcher(
                ImageFetchCore(
                    config: config,
                    database: database,
                    store: store,
                    clock: clock,
                    transport: transport ?? CurlTransport(userAgent: "twfeed/1.0 (images)"),
                    janitorBell: janitorBell,
                    logger: logger
                )
            ) : nil
        let janitor = ImageJanitor(
            store: store,
            database: database,
            clock: clock,
            capBytes: Int64(config.images.maxCacheMB) << 20,
            doorbell: janitorBell,
            fetcherBell: fetcherBell,
            photoBell: photos?.doorbell,
            logger: logger
        )
        return (fetcher, photos, janitor)
    }
}
