import Foundation
import Logging
import ServiceLifecycle
import TwfeedCore
import TwfeedStore

/// Keeps the pictures stored posts show (photos, and the stills of videos and GIFs) on
/// local disk, as `ImageFetcher` keeps avatars: the same policy and downloader (https,
/// allowed hosts, per-hop redirect checks, the type read from the bytes, 5 MB), the same
/// content-addressed cache and its bound (`images.maxCacheMB`), which the janitor keeps
/// for both, least recently used first. `images.photos: false` leaves it out.
///
/// - It wakes when a page or a lookup stores posts (a database observation of `tweet`
///   rings its doorbell), when a retry falls due, and once an hour.
/// - A picture's URL names it for good (the host never changes the bytes behind a media
///   URL), so a cached photo is never revalidated: each is requested once, and again
///   only when its file was lost, or evicted and shown since.
/// - A refused picture is logged once with its reason and not tried again until the
///   policy in the config changes; a failed one retries after 5 minutes, doubling to 6 hours.
package struct PhotoFetcher: Service {
    /// Pictures asked for per pass: a first poll of a busy account has hundreds; the
    /// pass after takes the rest.
    package static let batch = 200

    let core: ImageFetchCore
    var database: AppDatabase { core.database }
    var clock: any WallClock { core.clock }
    var logger: Logger { core.logger }
    package let doorbell: Doorbell

    /// On `core`'s transport, policy and cache; pass it a transport of its own, so a page
    /// of photos never holds up the avatars of the next page's authors.
    package init(_ core: ImageFetchCore) {
        self.core = core
        doorbell = Doorbell()
    }

    /// What one pass did (`notModified` stays 0: a photo is never revalidated).
    package typealias Cycle = ImageFetchCycle

    package func run() async throws {
        let observation = database.observePostChanges { [doorbell] in doorbell.ring() }
        defer { observation.cancel() }
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                var more = false
                do {
                    more = try await fetchDue().candidates == Self.batch
                } catch is CancellationError {
                    return
                } catch {
                    logger.error("photo.store_failed", metadata: ["error": "\(error)"])
                }
                if more { continue }
                let now = clock.now()
                var wake = now.addingTimeInterval(ImageFetcher.idleInterval)
                if let due = try? await database.nextPhotoDue() {
                    wake = min(wake, max(due, now.addingTimeInterval(ImageFetcher.minimumPause)))
                }
                await doorbell.wait(until: wake, clock: clock)
            }
        }
    }

    /// One pass: up to `batch` pictures due now, `concurrency` at a time.
    @discardableResult
    package func fetchDue() async throws -> Cycle {
        let now = clock.now()
        let candidates = try await database.photoCandidates(policy: core.policy.key, now: now, limit: Self.batch)
        var cycle = Cycle()
        guard !candidates.isEmpty else { return cycle }
        cycle.candidates = candidates.count
        try await forEachBounded(candidates, limit: core.concurrency, into: &cycle, add: { $0.add($1) }) { try await process($0) }
        logger.info(
            "photo.cycle",
            metadata: [
                "candidates": "\(cycle.candidates)", "fetched": "\(cycle.fetched)", "rejected": "\(cycle.rejected)",
                "failed": "\(cycle.failed)", "requests": "\(cycle.requests)", "bytes": "\(cycle.bytes)",
                "ms": "\(core.milliseconds(since: now))",
            ]
        )
        try await core.ringJanitorIfFull(written: cycle.written)
        return cycle
    }

    private func process(_ candidate: PhotoCandidate) async throws -> Cycle {
        try Task.checkCancellation()
        var cycle = Cycle()
        let outcome: ImageDownloader.Outcome
        (outcome, cycle.requests) = try await core.download(candidate.url, validators: nil)
        let now = clock.now()
        switch outcome {
        case .fetched(let body, let format, _, _):
            let written = try await core.install(body, format: format) { file in
                try await database.recordPhotoFetched(url: candidate.url, file: file, bytes: body.count, now: now)
            }
            cycle.fetched = 1
            cycle.bytes = body.count
            cycle.written = written ? 1 : 0
        case .notModified:
            // Never asked conditionally: a 304 is the host's mistake, tried again later.
            try await recordFailure(candidate, reason: "unexpected_304", detail: "304 to an unconditional request", now: now)
            cycle.failed = 1
        case .rejected(let reason, let detail):
            try await database.recordPhotoRejected(url: candidate.url, reason: reason, policy: core.policy.key)
            cycle.rejected = 1
            logger.warning(
                "photo.rejected",
                metadata: [
                    "url": "\(ImageDownloader.shorten(candidate.url))", "reason": "\(reason)",
                    "detail": "\(ImageDownloader.shorten(detail))",
                ]
            )
        case .failed(let reason, let detail):
            try await recordFailure(candidate, reason: reason, detail: detail, now: now)
            cycle.failed = 1
        }
        return cycle
    }

    private func recordFailure(_ candidate: PhotoCandidate, reason: String, detail: String, now: Date) async throws {
        let failures = candidate.failures + 1
        let delay = ImageFetcher.retry.delay(afterFailures: failures)
        try await database.recordPhotoFailed(
            url: candidate.url,
            error: ImageFailure(reason: reason, detail: detail),
            failures: failures,
            retryAt: now.addingTimeInterval(delay)
        )
        logger.warning(
            "photo.failed",
            metadata: [
                "url": "\(ImageDownloader.shorten(candidate.url))", "reason": "\(reason)",
                "detail": "\(ImageDownloader.shorten(detail))", "failures": "\(failures)", "retry_in_s": "\(Int(delay))",
            ]
        )
    }
}
