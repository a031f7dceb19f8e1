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
        // Each fetcher on a transport of its own (its own easy handles and threads): a slow
        // image host never holds up an API request, and a page of photos never holds up
        // the avatars of the next page's authors.
        func core() -> ImageFetchCore {
            ImageFetchCore(
                config: config,
                database: database,
                store: store,
                clock: clock,
                transport: transport ?? CurlTransport(userAgent: "twfeed/1.0 (images)"),
                janitorBell: janitorBell,
                logger: logger
            )
        }
        let fetcher = ImageFetcher(core(), doorbell: fetcherBell)
        let photos = config.images.photos ? PhotoFetcher(core()) : nil
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
