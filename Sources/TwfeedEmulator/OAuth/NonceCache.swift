import Foundation

/// Remembers nonces long enough that a replay is caught before the timestamp check
/// would catch it anyway.
struct NonceCache {
    private var seen: [String: Date] = [:]
    private var insertions = 0

    /// Records the nonce; false if it was seen within `retention` seconds.
    mutating func insert(_ key: String, now: Date, retention: TimeInterval) -> Bool {
        insertions += 1
        if insertions % 512 == 0 { seen = seen.filter { now.timeIntervalSince($0.value) < retention } }
        if let previous = seen[key], now.timeIntervalSince(previous) < retention { return false }
        seen[key] = now
        return true
    }
}
