import TwfeedCore

/// How a page asks for the posts it shows as "not fetched yet": it records the ids and
/// returns at once (a page never waits on the network); the daemon's fetcher reads them
/// in batches, within the budget, and the next look shows them. Implemented outside
/// the reader target (`FetchRequester`), as `ReaderOutbox` is.
package protocol ReaderFetches: Sendable {
    /// Records the ids (those stored or lately called gone are skipped) and rings the
    /// fetcher. Never throws: a page shows what is stored whether or not the request
    /// could be written.
    func request(_ ids: [TweetID]) async
}
