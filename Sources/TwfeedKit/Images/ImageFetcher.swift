import Foundation
import Logging
import ServiceLifecycle
import TwfeedCore
import TwfeedStore

/// Keeps every stored author's profile picture on local disk (the API's terms forbid
/// hot-linking them), in the background and apart from the API.
///
/// - It wakes when a page stores authors (a database observation of the `user` table
///   rings its doorbell), when a revalidation or retry falls due, and once an hour.
/// - An author needs a request when their URL (or `images.size`) is new or changed, when
///   their file was lost or evicted and they were seen since, or `revalidateDays` after
///   the last fetch; a revalidation sends If-None-Match / If-Modified-Since, and a 304
///   costs no body. Everything else is answered from the database, across restarts too.
/// - At most `images.concurrency` downloads run at once, on the fetcher's own libcurl
///   transport (its own handles and threads), so images never delay a feed poll.
/// - Every URL, and every redirect target (at most 3 hops, followed here, not by curl),
///   passes `ImagePolicy`, and every address connected to its `AddressWall`; the
///   transfer is cut off past 5 MB; the body must be the image its Content-Type claims
///   (`ImageValidator`). A refused image is logged once with its reason and not tried
///   again until the author's URL (or the policy in the config) changes.
package struct ImageFetcher: Service {
    /// Revalidations and retries never run closer together than this, whatever the
    /// config says (`revalidateDays: 0` revalidates at most once a minute).
    package static let minimumPause: Double = 60
    /// Without any ring or due row the fetcher still looks once an hour.
    package static let idleInterval: Double = 3600
    /// Transient failures retry after 5 minutes, doubling to 6 hours.
    package static let retry = Backoff(base: 300, cap: 6 * 3600)

    let core: ImageFetchCore
    package var store: ImageStore { core.store }
    package var policy: ImagePolicy { core.policy }
    var database: AppDatabase { core.database }
    var clock: any WallClock { core.clock }
    var logger: Logger { core.logger }
    /// `images.revalidateDays`, in seconds: when a cached avatar is asked for again.
    var revalidateSeconds: Double { core.revalidateSeconds }
    /// Rung when a page stores authors, and by the janitor after it lost track of files.
    package let doorbell: Doorbell

    /// On `core`'s transport, policy and cache: a transport of its own, so a slow image
    /// host never holds up an API request.
    package init(_ core: ImageFetchCore, doorbell: Doorbell = Doorbell()) {
        self.core = core
        self.doorbell = doorbell
    }

    /// What one pass did.
    package typealias Cycle = ImageFetchCycle

    package func run() async throws {
        let observation = database.observeAuthorChanges { [doorbell] in doorbell.ring() }
        defer { observation.cancel() }
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    _ = try await fetchDue()
                } catch is CancellationError {
                    return
                } catch {
                    logger.error("image.store_failed", metadata: ["error": "\(error)"])
                }
                let now = clock.now()
                var wake = now.addingTimeInterval(Self.idleInterval)
                if let due = try? await database.nextImageDue(revalidateSeconds: revalidateSeconds) {
                    wake = min(wake, max(due, now.addingTimeInterval(Self.minimumPause)))
                }
                await doorbell.wait(until: wake, clock: clock)
            }
        }
    }

    /// One pass: every author due now, `concurrency` at a time.
    @discardableResult
    package func fetchDue() async throws -> Cycle {
        try await database.touchImagesFromAuthors()
        let now = clock.now()
        let candidates = try await database.imageCandidates(
            size: policy.size.rawValue,
            policy: policy.key,
            now: now,
            staleBefore: now.addingTimeInterval(-revalidateSeconds)
        )
        var cycle = Cycle()
        guard !candidates.isEmpty else { return cycle }
        cycle.candidates = candidates.count
        try await forEachBounded(candidates, limit: core.concurrency, into: &cycle, add: { $0.add($1) }) { try await process($0) }
        logger.info(
            "image.cycle",
            metadata: [
                "candidates": "\(cycle.candidates)", "fetched": "\(cycle.fetched)", "not_modified": "\(cycle.notModified)",
                "rejected": "\(cycle.rejected)", "failed": "\(cycle.failed)", "requests": "\(cycle.requests)",
                "bytes": "\(cycle.bytes)", "ms": "\(core.milliseconds(since: now))",
            ]
        )
        try await core.ringJanitorIfFull(written: cycle.written)
        return cycle
    }

    // MARK: One author

    private func process(_ candidate: ImageCandidate) async throws -> Cycle {
        try Task.checkCancellation()
        let started = clock.now()
        let url = policy.variant(of: candidate.sourceURL)
        let subject = AppDatabase.ImageSubject(
            authorID: candidate.authorID,
            sourceURL: candidate.sourceURL,
            size: policy.size.rawValue,
            url: url,
            usedAt: candidate.usedAt
        )
        var cycle = Cycle()
        // A revalidation when the row is about this very URL and its file is on disk.
        var validators: (etag: String?, lastModified: String?)?
        if let record = candidate.record, record.url == url, record.sourceURL == candidate.sourceURL,
            record.size == subject.size, record.rejectedReason == nil, let file = record.file, store.exists(file),
            record.etag != nil || record.lastModified != nil
        {
            validators = (record.etag, record.lastModified)
        }
        let outcome: ImageDownloader.Outcome
        (outcome, cycle.requests) = try await core.download(url, validators: validators)
        let ms = core.milliseconds(since: started)
        let now = clock.now()
        switch outcome {
        case .fetched(let body, let format, let etag, let lastModified):
            let written = try await core.install(body, format: format) { file in
                try await database.recordImageFetched(subject, file: file, bytes: body.count, etag: etag, lastModified: lastModified, now: now)
            }
            cycle.fetched = 1
            cycle.bytes = body.count
            cycle.written = written ? 1 : 0
            logger.debug(
                "image.fetched",
                metadata: [
                    "author_id": "\(candidate.authorID)", "bytes": "\(body.count)", "ms": "\(ms)",
                    "shared": "\(!written)", "revalidated": "\(validators != nil)",
                ]
            )
        case .notModified(let etag, let lastModified) where validators != nil:
            try await database.recordImageNotModified(subject, etag: etag, lastModified: lastModified, now: now)
            cycle.notModified = 1
            logger.debug("image.not_modified", metadata: ["author_id": "\(candidate.authorID)", "ms": "\(ms)"])
        case .notModified:
            try await recordFailure(candidate, subject, reason: "unexpected_304", detail: "304 to an unconditional request", now: now)
            cycle.failed = 1
        case .rejected(let reason, let detail):
            try await core.record { try await database.recordImageRejected(subject, reason: reason, policy: policy.key, now: now) }
            cycle.rejected = 1
            logger.warning(
                "image.rejected",
                metadata: [
                    "author_id": "\(candidate.authorID)", "url": "\(ImageDownloader.shorten(url))", "reason": "\(reason)",
                    "detail": "\(ImageDownloader.shorten(detail))",
                ]
            )
        case .failed(let reason, let detail):
            try await recordFailure(candidate, subject, reason: reason, detail: detail, now: now)
            cycle.failed = 1
        }
        return cycle
    }

    private func recordFailure(
        _ candidate: ImageCandidate,
        _ subject: AppDatabase.ImageSubject,
        reason: String,
        detail: String,
        now: Date
    ) async throws {
        let previous = candidate.record.flatMap { $0.url == subject.url && $0.sourceURL == subject.sourceURL ? $0.failures : nil } ?? 0
        let failures = previous + 1
        let delay = Self.retry.delay(afterFailures: failures)
        try await core.record {
            try await database.recordImageFailed(
                subject,
                error: ImageFailure(reason: reason, detail: detail),
                failures: failures,
                retryAt: now.addingTimeInterval(delay),
                now: now
            )
        }
        logger.warning(
            "image.failed",
            metadata: [
                "author_id": "\(candidate.authorID)", "url": "\(ImageDownloader.shorten(subject.url))", "reason": "\(reason)",
                "detail": "\(ImageDownloader.shorten(detail))", "failures": "\(failures)", "retry_in_s": "\(Int(delay))",
            ]
        )
    }
}
