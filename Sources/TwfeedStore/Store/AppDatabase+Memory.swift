import Foundation
import GRDB

extension AppDatabase {
    /// Empties the writer connection's page cache (`PRAGMA shrink_memory`): after a
    /// backfill it holds up to `cache_size` (SQLite's default, 2 MiB) of pages the
    /// inserts touched, which the daemon, idle until its next poll, would otherwise keep
    /// for minutes; it was the largest part of its own memory (docs/PERFORMANCE.md,
    /// Memory). Only the writer's: reads go through the pool's readers, whose caches keep
    /// their pages, so no page read becomes slower. The next write reads what it needs
    /// back from the file (the kernel's page cache, as a rule), in microseconds per page.
    package func releaseWriterCache() async throws {
        try await writeWithoutTransaction { db in db.releaseMemory() }
    }
}
