import Foundation

/// Whether a process exists. One helper for the status snapshot (is the daemon that
/// wrote it alive?) and the image janitor (is the download that left this temporary
/// file still running?), so both read `kill(pid, 0)` the same way.
public enum ProcessLiveness {
    /// `kill(pid, 0)` succeeds, or fails only because the process is someone else's
    /// (EPERM: it exists). Zero and negative pids name process groups, never one process.
    public static func isAlive(_ pid: Int32) -> Bool {
        pid > 0 && (kill(pid, 0) == 0 || errno == EPERM)
    }
}
