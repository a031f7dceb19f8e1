/// What one pass of an image fetcher did: the avatars' (`ImageFetcher`) or the photos'
/// (`PhotoFetcher`, which never revalidates, so its `notModified` stays 0).
package struct ImageFetchCycle: Sendable, Equatable {
    package var candidates = 0
    package var fetched = 0
    package var notModified = 0
    package var rejected = 0
    package var failed = 0
    /// HTTP requests sent, redirects included.
    package var requests = 0
    /// Image bytes downloaded (bodies of 200 answers).
    package var bytes = 0
    /// Files written (a picture already in the cache, another author's or post's, is not written again).
    package var written = 0

    package init() {}

    mutating func add(_ other: Self) {
        candidates += other.candidates
        fetched += other.fetched
        notModified += other.notModified
        rejected += other.rejected
        failed += other.failed
        requests += other.requests
        bytes += other.bytes
        written += other.written
    }
}
