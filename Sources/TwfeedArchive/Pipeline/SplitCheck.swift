import Foundation

/// `check()`'s share of the cores: one data file's elements split into contiguous slices,
/// each decoded on its own thread. The file's bytes are in memory once, shared; only one
/// file is checked at a time, so memory stays near the largest file's size.
enum SplitCheck {
    /// How many slices: the cores there are, at most two (the import's other thread is the
    /// store's writer).
    static var workers: Int { max(1, min(2, ProcessInfo.processInfo.activeProcessorCount)) }

    /// Runs `body` over every index of `ranges`, slice by slice in parallel, and throws the
    /// error of the first bad element in the file's order — the one a sequential pass names.
    static func forEach(
        _ ranges: [Range<Int>],
        workers: Int = SplitCheck.workers,
        _ body: @Sendable (Range<Int>, Int) throws(ArchiveError) -> Void
    ) throws(ArchiveError) {
        let slices = max(1, min(workers, ranges.count))
        guard slices > 1 else {
            for (index, range) in ranges.enumerated() { try body(range, index) }
            return
        }
        let failures = Failures(count: slices)
        let size = (ranges.count + slices - 1) / slices
        DispatchQueue.concurrentPerform(iterations: slices) { slice in
            let start = slice * size
            let end = min(ranges.count, start + size)
            do throws(ArchiveError) {
                for index in start..<end { try body(ranges[index], index) }
            } catch {
                failures.set(slice, error)
            }
        }
        if let first = failures.first { throw first }
    }

    /// Each slice's error, if any; a slice writes only its own.
    private final class Failures: @unchecked Sendable {
        private let lock = NSLock()
        private var errors: [ArchiveError?]

        init(count: Int) { errors = Array(repeating: nil, count: count) }

        func set(_ slice: Int, _ error: ArchiveError) {
            lock.lock()
            errors[slice] = error
            lock.unlock()
        }

        /// The earliest slice's error: slices are in the file's order.
        var first: ArchiveError? {
            lock.lock()
            defer { lock.unlock() }
            return errors.lazy.compactMap { $0 }.first
        }
    }
}
