import Foundation
import Glibc
import TwfeedSandbox

/// The release `twfeed run` as systemd runs it: started with `NOTIFY_SOCKET` naming a
/// datagram socket the bench listens on, so start-to-READY is the time from spawning
/// the process to receiving its `READY=1`, and its memory is read from /proc.
///
/// The only place the bench runs the daemon as a process: when the daemon's start-up
/// changes, this is the function to adapt.
final class DaemonProbe {
    let process = Process()
    let notifyPath: String
    private let notifyFD: Int32
    /// Seconds from spawn to READY=1.
    private(set) var startToReady: Double = 0

    /// Starts `twfeed run --config configPath` and waits (up to `timeout`) for READY=1.
    /// Throws when the daemon exits or stays silent.
    init(binary: String, configPath: String, folder: String, timeout: Double = 30) throws {
        notifyPath = "\(folder)/notify.sock"
        unlink(notifyPath)
        notifyFD = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in notifyPath.utf8.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(notifyFD, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else { throw BenchError("cannot bind \(notifyPath)") }
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["run", "--config", configPath]
        var environment = ProcessInfo.processInfo.environment
        environment["NOTIFY_SOCKET"] = notifyPath
        environment.removeValue(forKey: "WATCHDOG_USEC")
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        let started = DispatchTime.now()
        try process.run()
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout * 1e9)
        while true {
            var descriptor = pollfd(fd: notifyFD, events: Int16(POLLIN), revents: 0)
            if poll(&descriptor, 1, 20) > 0 {
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = recv(notifyFD, &buffer, buffer.count, 0)
                if count > 0, String(decoding: buffer[0..<count], as: UTF8.self).split(separator: "\n").contains("READY=1") {
                    startToReady = Bench.elapsed(since: started)
                    return
                }
            }
            guard process.isRunning else { throw BenchError("twfeed run exited \(process.terminationStatus) before READY") }
            guard DispatchTime.now().uptimeNanoseconds < deadline else {
                stop()
                throw BenchError("twfeed run sent no READY=1 in \(timeout) s")
            }
        }
    }

    var pid: Int32 { process.processIdentifier }

    /// VmRSS, Pss and Anonymous of the daemon, in KiB. Anonymous (`smaps_rollup`) is the
    /// daemon's own memory: heap, stacks and dirty private pages, none of it shared with
    /// other processes or backed by a file, so it is what the daemon's code decides.
    func memory() -> Memory {
        let rollup = "/proc/\(pid)/smaps_rollup"
        return Memory(
            rss: Self.kibibytes("VmRSS", in: "/proc/\(pid)/status"),
            pss: Self.kibibytes("Pss", in: rollup),
            anonymous: Self.kibibytes("Anonymous", in: rollup)
        )
    }

    /// What `memory()` reads, in KiB.
    struct Memory {
        let rss: Int
        let pss: Int
        let anonymous: Int
    }

    /// SIGTERM, then waits for the graceful stop.
    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        close(notifyFD)
        unlink(notifyPath)
    }

    /// A `Key:   1234 kB` line of a /proc file.
    static func kibibytes(_ key: String, in path: String) -> Int {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix(key + ":") {
            return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        }
        return 0
    }

    /// Waits until the emulator has seen no request for `quiet` seconds (the backfill is
    /// over and the pollers sleep), at most `limit` seconds.
    static func settle(sandbox: Sandbox, quiet: Double = 2, limit: Double = 60) async throws {
        let started = DispatchTime.now()
        var last = -1
        var quietSince = DispatchTime.now()
        while Bench.elapsed(since: started) < limit {
            let count = sandbox.emulator.requests.count
            if count != last {
                last = count
                quietSince = .now()
            }
            if Bench.elapsed(since: quietSince) >= quiet { return }
            try await Task.sleep(for: .milliseconds(100))
        }
    }
}
