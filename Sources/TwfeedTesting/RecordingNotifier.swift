import Synchronization
import TwfeedKit

/// Keeps every message, so a test can assert on what the daemon told systemd. Lives in
/// TwfeedTesting, not in the product: nothing in the daemon records its own notifications.
package final class RecordingNotifier: Notifier {
    private let storage = Mutex<[String]>([])
    package let watchdogInterval: Double?

    package init(watchdogInterval: Double? = nil) {
        self.watchdogInterval = watchdogInterval
    }

    package func send(_ message: String) {
        storage.withLock { $0.append(message) }
    }

    package var messages: [String] { storage.withLock { $0 } }
}
