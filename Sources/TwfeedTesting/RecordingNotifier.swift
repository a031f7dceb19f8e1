import Synchronization
import TwfeedKit

/// Keeps every message, so a test can assert on what the daemon told systemd. Lives in
/// TwfeedTesting, not in the product: nothing in the daemon records its own notifications.
public final class RecordingNotifier: Notifier {
    private let storage = Mutex<[String]>([])
    public let watchdogInterval: Double?

    public init(watchdogInterval: Double? = nil) {
        self.watchdogInterval = watchdogInterval
    }

    public func send(_ message: String) {
        storage.withLock { $0.append(message) }
    }

    public var messages: [String] { storage.withLock { $0 } }
}
