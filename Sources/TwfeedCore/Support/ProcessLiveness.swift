import Foundation

/// Whether a process exists, and whether it is the one we mean. One helper for the
/// status snapshot (is the daemon that wrote it alive?), `login`/`logout` (may it be
/// sent SIGHUP?) and the image janitor (is the download that left this temporary file
/// still running?), so all read pids the same way.
package enum ProcessLiveness {
    /// `kill(pid, 0)` succeeds, or fails only because the process is someone else's
    /// (EPERM: it exists). Zero and negative pids name process groups, never one process.
    package static func isAlive(_ pid: Int32) -> Bool {
        pid > 0 && (kill(pid, 0) == 0 || errno == EPERM)
    }

    /// When the process started, in clock ticks since boot (`/proc/PID/stat` field 22):
    /// with the pid, it names one process for the life of the machine, so a pid reused
    /// after a crash does not pass for the daemon that wrote a snapshot.
    package static func startTicks(of pid: Int32) -> UInt64? {
        guard pid > 0, let data = FileManager.default.contents(atPath: "/proc/\(pid)/stat") else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        // The command name (field 2) may hold spaces and parentheses: count after the last ')'.
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // fields[0] is field 3 (state), so field 22 is fields[19].
        guard fields.count > 19 else { return nil }
        return UInt64(fields[19])
    }

    /// Whether `pid` is the twfeed daemon a snapshot describes: its start time matches
    /// the one the daemon recorded, or it holds the database's lock. A live process
    /// that is neither is someone else's (pid reuse) and must not be signalled.
    package static func isDaemon(_ pid: Int32, startTicks expected: UInt64?, database: String?) -> Bool {
        guard isAlive(pid) else { return false }
        if let expected, let actual = startTicks(of: pid) { return expected == actual }
        if let database, let holder = DatabaseLock.holder(database: database) { return holder == pid }
        return false
    }
}
