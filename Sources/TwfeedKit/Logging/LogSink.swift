import Foundation
import Logging
import Synchronization
import TwfeedCore

/// Where finished log lines go. A line never contains a newline.
package protocol LogSink: Sendable {
    func write(_ line: String, level: Logger.Level)
}

/// Standard error. Under systemd (`JOURNAL_STREAM` set) each line gets its syslog
/// priority prefix, so `journalctl -p warning` filters as users expect.
package struct StandardErrorSink: LogSink {
    let journalPrefixes: Bool

    package init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        journalPrefixes = Self.writesToJournal(environment["JOURNAL_STREAM"])
    }

    /// `JOURNAL_STREAM` is `device:inode` of the journal's stream; it counts only when
    /// standard error is still that stream (a child whose stderr was redirected to a
    /// file inherits the variable, and a file must not get `<6>` prefixes).
    static func writesToJournal(_ value: String?) -> Bool {
        guard let value else { return false }
        let parts = value.split(separator: ":")
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
        var info = stat()
        guard fstat(STDERR_FILENO, &info) == 0 else { return false }
        return UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode
    }

    package func write(_ line: String, level: Logger.Level) {
        let text = (journalPrefixes ? Self.priority(level) : "") + line + "\n"
        text.utf8CString.withUnsafeBufferPointer { buffer in
            _ = Glibc.write(STDERR_FILENO, buffer.baseAddress, buffer.count - 1)
        }
    }

    static func priority(_ level: Logger.Level) -> String {
        switch level {
        case .trace, .debug: "<7>"
        case .info: "<6>"
        case .notice: "<5>"
        case .warning: "<4>"
        case .error: "<3>"
        case .critical: "<2>"
        }
    }
}

/// An append-only log file, reopened on SIGUSR1 so logrotate can move it away
/// without copytruncate.
package final class FileSink: LogSink {
    package let path: String
    private let descriptor: Mutex<Int32>

    package init(path: String) throws {
        self.path = path
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o640)
        guard fd >= 0 else {
            throw TwfeedError(.io, "\(path): cannot open log file: \(String(cString: strerror(errno)))")
        }
        descriptor = Mutex(fd)
    }

    package func write(_ line: String, level: Logger.Level) {
        let text = line + "\n"
        descriptor.withLock { fd in
            text.utf8CString.withUnsafeBufferPointer { buffer in
                _ = Glibc.write(fd, buffer.baseAddress, buffer.count - 1)
            }
        }
    }

    /// Opens the path anew; the old descriptor is closed once the new one is good.
    package func reopen() {
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o640)
        guard fd >= 0 else { return }
        let old = descriptor.withLock { current in
            let old = current
            current = fd
            return old
        }
        close(old)
    }

    deinit { close(descriptor.withLock { $0 }) }
}

/// Fans a line out to several sinks (stderr and a file, say).
package struct MultiSink: LogSink {
    package let sinks: [any LogSink]
    package init(_ sinks: [any LogSink]) { self.sinks = sinks }
    package func write(_ line: String, level: Logger.Level) {
        for sink in sinks { sink.write(line, level: level) }
    }
}
