import Foundation
import Logging
import TwfeedArchive
import TwfeedCore
import TwfeedStore

/// `twfeed import`: an archive X sent its user, checked whole, then stored as the feeds
/// `posts` and `likes`, its photos put in the photo cache. Reads nothing from the API and
/// costs nothing (no ledger row). A second writer beside a running daemon: each batch is
/// its own short transaction, and waits on the store's busy timeout like any writer.
package struct ArchiveImporter: Sendable {
    package let database: AppDatabase
    /// The photo cache (`storage.imageCache`).
    package let images: ImageStore
    package let clock: any WallClock
    package let logger: Logger
    /// The account the credentials file says is signed in (`signedInAccount(credentials:)`),
    /// nil before sign-in: the archive must be its, else the database's.
    package var signedIn: Account?
    /// Posts per transaction: large enough that a commit's cost is shared, small enough
    /// that the daemon's and the reader's waits stay short.
    package var batchSize = 2_000

    package init(database: AppDatabase, images: ImageStore, clock: any WallClock, logger: Logger) {
        self.database = database
        self.images = images
        self.clock = clock
        self.logger = logger
    }

    /// Checks the whole archive first (bad input changes nothing), refuses another
    /// account's archive than `signedIn`'s (else the database's), then stores posts, likes
    /// and photos. With `dryRun` the same writes are rolled back, so the summary's counts
    /// are exact and nothing changes.
    package func run(
        _ archive: any ArchiveReading,
        dryRun: Bool,
        progress: @escaping @Sendable (ImportProgress) -> Void = { _ in }
    ) async throws -> ImportSummary {
        let started = clock.monotonicNow()
        progress(ImportProgress(phase: .checking, done: 0))
        try await Self.check(archive, logger: logger)
        return try await store(archive, dryRun: dryRun, startedAt: started, progress: progress)
    }

    /// Reads the whole archive through: bad input is one line naming the file inside the
    /// archive (exit 65). Before the database is even opened, so a refused archive
    /// leaves no trace in it.
    package static func check(_ archive: any ArchiveReading, logger: Logger) async throws {
        do {
            try await archive.check()
        } catch {
            logger.warning("import.refused", metadata: ["file": "\(error.file)", "reason": "\(error.code.rawValue)"])
            throw TwfeedError(.invalidData, error.description)
        }
    }

    /// Stores a checked archive; `startedAt` (monotonic) is when the import began.
    package func store(
        _ archive: any ArchiveReading,
        dryRun: Bool,
        startedAt started: Double,
        progress: @escaping @Sendable (ImportProgress) -> Void = { _ in }
    ) async throws -> ImportSummary {
        let owner = try await self.owner(of: archive, dryRun: dryRun)
        let account = archive.account
        if !dryRun {
            try await database.storeArchiveAuthor(
                Author(id: account.id, username: account.username, name: account.displayName ?? account.username),
                now: clock.now()
            )
        }
        var summary = ImportSummary(account: archive.account)
        summary.dryRun = dryRun
        summary.ignored = archive.ignoredFiles
        logger.info("import.started", metadata: ["account": "\(archive.account.username)", "dry_run": "\(dryRun)"])
        let now = clock.now()
        // A dry run's batches are rolled back: what the real one would have stored before
        // (the posts a like names, the pictures a photo goes to) is kept here instead.
        var posted: Set<TweetID> = []
        var pictures: [TweetID: [String]] = [:]
        do {
            try await archive.posts(batchSize: batchSize) { posts in
                summary.posts = summary.posts + (try await database.storeArchived(posts, feed: .posts, account: owner, now: now, dryRun: dryRun))
                if dryRun {
                    for post in posts {
                        posted.insert(post.id)
                        if !post.media.isEmpty { pictures[post.id] = post.media.compactMap(\.imageURL) }
                    }
                }
                progress(ImportProgress(phase: .posts, done: summary.posts.total))
            }
            try await archive.likes(batchSize: batchSize) { likes in
                let tweets = likes.map(Self.tweet)
                summary.likes =
                    summary.likes
                    + (try await database.storeArchived(tweets, feed: .likes, account: owner, now: now, dryRun: dryRun, storedBefore: posted))
                progress(ImportProgress(phase: .likes, done: summary.likes.total))
            }
        } catch let error as ArchiveError {
            // check() read it all: only a file changed under the import gets here.
            throw TwfeedError(.invalidData, error.description)
        }
        summary.photos = try await cachePhotos(archive, now: now, dryRun: dryRun ? pictures : nil, progress: progress)
        summary.seconds = clock.monotonicNow() - started
        logger.info(
            "import.finished",
            metadata: [
                "account": "\(archive.account.username)", "posts_new": "\(summary.posts.new)", "posts_updated": "\(summary.posts.updated)",
                "likes_new": "\(summary.likes.new)", "likes_updated": "\(summary.likes.updated)", "photos": "\(summary.photos)",
                "seconds": "\(String(format: "%.3f", summary.seconds))", "dry_run": "\(dryRun)",
            ]
        )
        return summary
    }

    /// A like as the store keeps a post it knows only by id: dated by its id, its author
    /// unknown until the post is fetched, its text the archive's (possibly cut) text.
    static func tweet(_ like: ArchivedLike) -> Tweet {
        var raw: [String: JSONValue] = ["tweetId": .string(like.id.description)]
        if let text = like.text { raw["fullText"] = .string(text) }
        if let url = like.expandedURL { raw["expandedUrl"] = .string(url) }
        return Tweet(
            id: like.id,
            authorID: .unknown,
            createdAt: like.id.snowflakeDate,
            text: like.text ?? "",
            rawJSON: JSONValue.object(["like": .object(raw)]).serialized
        )
    }

    /// The archive's photos, each into the cache as if the photo fetcher had downloaded
    /// it, matched to its post's picture URL by name. Not an image (a video's mp4), over
    /// the fetcher's 5 MB, no such picture in the post, or cached already: skipped. Returns how many were cached.
    ///
    /// - Parameter dryRun: nil for a real import; for a dry run, the picture URLs of the
    ///   archive's posts (their rows were rolled back): a photo is counted, not cached.
    func cachePhotos(
        _ archive: any ArchiveReading,
        now: Date,
        dryRun pictures: [TweetID: [String]]?,
        progress: @Sendable (ImportProgress) -> Void
    ) async throws -> Int {
        var cached = 0
        let photos = archive.photos
        for (index, photo) in photos.enumerated() {
            progress(ImportProgress(phase: .photos, done: index, total: photos.count))
            let stored = try await database.archivedPhoto(tweet: photo.tweetID, mediaName: photo.mediaName)
            let dryTarget = pictures?[photo.tweetID]?.first { $0.split(separator: "/").last.map(String.init) == photo.mediaName }
            // What the photo fetcher would refuse to download, the cache does not take either.
            guard let url = stored?.url ?? dryTarget, stored?.file == nil, photo.byteCount <= ImageDownloader.maxImageBytes else { continue }
            let bytes: [UInt8]
            do {
                bytes = [UInt8](try archive.photoBytes(photo))
            } catch {
                throw TwfeedError(.invalidData, error.description)
            }
            guard let format = ImageFormat.sniff(bytes) else { continue }
            if pictures != nil {
                cached += 1
                continue
            }
            _ = try await images.install(bytes, format: format) { file in
                try await database.recordPhotoFetched(url: url, file: file, bytes: bytes.count, now: now)
            }
            cached += 1
        }
        if !photos.isEmpty { progress(ImportProgress(phase: .photos, done: photos.count, total: photos.count)) }
        return cached
    }
}
