import Synchronization
import TwfeedStore

/// A writer on the database, opened on first use and kept: what the reader's doors to
/// the store (`DurableOutbox`, `FetchRequester`) write through, so `twfeed serve`
/// opens one only when someone posts or looks at a fault.
package final class LazyWriter: Sendable {
    private let path: String
    private let durable: Bool
    private let opened = Mutex<AppDatabase?>(nil)

    package init(path: String, durable: Bool) {
        self.path = path
        self.durable = durable
    }

    package func database() throws -> AppDatabase {
        try opened.withLock { opened in
            if let opened { return opened }
            let database = try AppDatabase.open(path: path, durable: durable)
            opened = database
            return database
        }
    }
}
