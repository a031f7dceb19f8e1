import Foundation
import Glibc
import TwfeedCore

/// Tells the service manager how the daemon is doing: `READY=1`, `STATUS=…`,
/// `WATCHDOG=1`, `RELOADING=1`, `STOPPING=1` (sd_notify(3)'s messages).
package protocol Notifier: Sendable {
    /// Sends one message (newline-separated `KEY=value` assignments).
    func send(_ message: String)
    /// How often the watchdog must be fed (half of `WATCHDOG_USEC`), nil when systemd
    /// does not watch this process.
    var watchdogInterval: Double? { get }
}

extension Notifier {
    package func ready() { send("READY=1") }
    package func reloading() {
        // MONOTONIC_USEC is what Type=notify-reload (systemd 253+) asks for; systemd 252
        // ignores it and needs only RELOADING=1.
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        send("RELOADING=1\nMONOTONIC_USEC=\(UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000)")
    }
    package func stopping() { send("STOPPING=1") }
    package func status(_ line: String) {
        send("STATUS=" + line.replacingOccurrences(of: "\n", with: " "))
    }
    package func watchdog() { send("WATCHDOG=1") }
}

/// sd_notify without libsystemd: one datagram to the `AF_UNIX` socket named by
/// `$NOTIFY_SOCKET` (a path, or an abstract name written with a leading `@`).
package final class SystemdNotifier: Notifier {
    private let socketPath: String
    private let fd: Int32
    package let watchdogInterval: Double?

    /// Nil when `NOTIFY_SOCKET` is unset: the daemon is not run by systemd (or by
    /// anything that speaks its protocol).
    package init?(environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let path = environment["NOTIFY_SOCKET"], !path.isEmpty,
            path.hasPrefix("/") || path.hasPrefix("@")
        else { return nil }
        let fd = UnixDatagram.socket()
        guard fd >= 0 else { return nil }
        socketPath = path
        self.fd = fd
        watchdogInterval = Self.watchdogInterval(environment: environment)
    }

    /// Half of `WATCHDOG_USEC`, as sd_watchdog_enabled(3) recommends, when the
    /// watchdog is meant for this process (`WATCHDOG_PID` unset or ours).
    static func watchdogInterval(environment: [String: String]) -> Double? {
        guard let text = environment["WATCHDOG_USEC"], let usec = UInt64(text), usec > 0 else { return nil }
        if let pid = environment["WATCHDOG_PID"], !pid.isEmpty, Int32(pid) != getpid() { return nil }
        return Double(usec) / 2_000_000
    }

    package func send(_ message: String) {
        UnixDatagram.send(message, from: fd, to: socketPath, flags: Int32(MSG_NOSIGNAL))
    }

    deinit { close(fd) }
}
