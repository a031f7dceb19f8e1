import Foundation
import Glibc
import Synchronization
import TwfeedEmulator
@testable import TwfeedKit
@testable import TwfeedCore

/// A fake systemd notification socket: binds a datagram socket (an abstract `@name`,
/// bound with the exact address length as systemd does, or a path) and keeps every
/// message the daemon sends.
final class NotifyListener: @unchecked Sendable {
    let name: String
    private let fd: Int32
    private let received = Mutex<[String]>([])
    private var thread: Thread?

    init(name: String) throws {
        self.name = name
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(name.utf8)
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        let offset = MemoryLayout<sockaddr_un>.offset(of: \sockaddr_un.sun_path)!
        let length = socklen_t(offset + bytes.count + (abstract ? 0 : 1))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0 else { throw TwfeedError(.io, "\(name): bind: \(String(cString: strerror(errno)))") }
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = recv(fd, &buffer, buffer.count, 0)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { return }
                let message = String(decoding: buffer[0 ..< count], as: UTF8.self)
                if message == "quit" { return }
                received.withLock { $0.append(message) }
            }
        }
        thread.start()
        self.thread = thread
    }

    var messages: [String] { received.withLock { $0 } }

    /// Stops the reader thread (a datagram to itself) and closes the socket.
    func close() {
        _ = SystemdNotifier(environment: ["NOTIFY_SOCKET": name])?.send("quit")
        shutdown(fd, Int32(SHUT_RDWR))
        Glibc.close(fd)
        if !name.hasPrefix("@") { unlink(name) }
    }
}

/// Runs `twfeed` interactively: reads its output as it comes and answers prompts.
final class Interactive: @unchecked Sendable {
    let process: Process
    private let pipes: ChildPipes
    private var buffer = Data()

    /// - Parameter errorLog: a file for standard error instead of a pipe, for a process
    ///   that logs more than a pipe holds while nobody reads it (`twfeed demo`).
    init(_ arguments: [String], environment: [String: String] = [:], errorLog: String? = nil) throws {
        process = Binary.makeProcess(arguments, environment: environment)
        if let errorLog {
            try Data().write(to: URL(fileURLWithPath: errorLog))
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errorLog))
        }
        pipes = try ChildPipes.run(process, input: true, error: errorLog == nil ? .pipe : .asGiven)
    }

    /// The next line of standard output (blocking; nil at its end).
    func readLine() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex ..< newline], as: UTF8.self)
                buffer = Data(buffer[buffer.index(after: newline)...])
                return line
            }
            let data = pipes.output.availableData
            if data.isEmpty { return nil }
            buffer.append(data)
        }
    }

    func write(_ text: String) {
        pipes.input?.write(Data(text.utf8))
    }

    /// Closes standard input and waits; returns the status, the rest of stdout, stderr.
    func finish() throws -> Binary.Result {
        try pipes.input?.close()
        let rest = pipes.output.readDataToEndOfFile()
        let stderr = pipes.error?.readDataToEndOfFile() ?? Data()
        process.waitUntilExit()
        return Binary.Result(status: process.terminationStatus,
                             stdout: String(decoding: buffer + rest, as: UTF8.self),
                             stderr: String(decoding: stderr, as: UTF8.self))
    }
}

extension TestWorld {
    /// `twfeed status --json` as the given environment sees it.
    func status(environment: [String: String] = [:], asNobody: Bool = false) throws -> (Int32, JSONValue) {
        let result: Binary.Result
        if asNobody {
            result = try Binary.runAs(uid: 65534, ["status", "--json", "--config", configPath], environment: environment)
        } else {
            result = try Binary.run(["status", "--json", "--config", configPath], environment: environment)
        }
        do {
            return (result.status, try JSONValue.parse(Data(result.stdout.utf8)))
        } catch {
            // Say what the command said: a bare parse error hides the cause.
            throw StatusFailure(status: result.status, stdout: result.stdout, stderr: result.stderr)
        }
    }

    var logPath: String { "\(folder)/twfeed.log" }
}

extension Binary {
    /// Runs the binary as another user (through setpriv), as someone else on the
    /// machine runs `twfeed status` against the service's daemon.
    static func runAs(uid: Int, _ arguments: [String], environment: [String: String] = [:]) throws -> Result {
        try runAs(uid: uid, command: [twfeed] + arguments, environment: environment)
    }

    /// Runs any command as another user (`/usr/bin/curl`, `/bin/cat`): what someone else
    /// on the machine could do.
    static func runAs(uid: Int, command: [String], environment: [String: String] = [:]) throws -> Result {
        try runProgram("/usr/bin/setpriv", ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups"] + command, environment: environment)
    }

    /// A command line as a user pastes it into a shell (`/bin/sh -c`).
    static func shell(_ line: String, environment: [String: String] = [:]) throws -> Result {
        try runProgram("/bin/sh", ["-c", line], environment: environment)
    }

    /// Runs any program to completion with the test's environment (minus the journal's)
    /// plus `environment`, standard input empty.
    static func runProgram(_ path: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["JOURNAL_STREAM"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let pipes = try ChildPipes.run(process)
        let stdout = pipes.output.readDataToEndOfFile()
        let stderr = pipes.error?.readDataToEndOfFile() ?? Data()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// Whether this test run may switch users (it runs as root and setpriv exists).
    static var canSwitchUser: Bool {
        geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
    }
}

struct StatusFailure: Error, CustomStringConvertible {
    var status: Int32
    var stdout: String
    var stderr: String
    var description: String { "twfeed status exited \(status) with stdout \"\(stdout)\" and stderr \"\(stderr)\"" }
}
