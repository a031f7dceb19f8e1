/// How the background writers that work in many short transactions (the pruner, the
/// search-index merger) leave the write lock to others between two of them.
///
/// Without a pause the next transaction takes the lock again within microseconds, and
/// another process's writer (`twfeed post`), whose busy handler only retries after 1, 2,
/// 5, 10… ms, misses every gap and waits for the whole job. A monotonic sleep: it
/// measures a gap, not a time of day.
package enum WriteLockPacing {
    /// Sleeps `ratio` times as long as the last transaction held the lock (at least a
    /// millisecond's worth, at most a second); a ratio of 0 only yields. With 1 the
    /// lock is free half of the time.
    package static func pause(after transactionSeconds: Double, ratio: Double = 1) async throws {
        guard ratio > 0 else { return await Task.yield() }
        let seconds = min(max(transactionSeconds, 0.001) * ratio, 1)
        try await Task.sleep(for: .microseconds(Int64(seconds * 1_000_000)))
    }
}
