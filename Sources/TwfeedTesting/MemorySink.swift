import Logging
import Synchronization
import TwfeedKit

/// Keeps lines in memory, so tests can assert on what the daemon logged (test-only:
/// the product always writes to stderr, a file or the journal).
package final class MemorySink: LogSink {
    private let storage = Mutex<[String]>([])

    package init() {}

    package func write(_ line: String, level: Logger.Level) {
        storage.withLock { $0.append(line) }
    }

    package var lines: [String] { storage.withLock { $0 } }

    /// Lines whose `event=` is the given name.
    package func events(_ name: String) -> [String] {
        lines.filter { $0.contains(" event=\(name) ") || $0.hasSuffix(" event=\(name)") || $0.contains("\"event\":\"\(name)\"") }
    }
}
