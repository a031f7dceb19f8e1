import ArgumentParser
import Foundation
import TwfeedCore
import TwfeedKit

struct LogsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logs",
        abstract: "Read and follow the daemon's log.",
        discussion: """
            Reads log.file when the config names one (following it across logrotate), else the \
            systemd journal of the unit (journalctl -u UNIT -o cat). Works on logfmt and JSON lines.
            """
    )

    @OptionGroup var options: GlobalOptions

    @Flag(name: [.customShort("f"), .long], help: "Keep reading as lines are written.")
    var follow = false

    @Option(
        help: "Only lines at this level or above: trace, debug, info, notice, warn, error, critical.",
        completion: .list(["trace", "debug", "info", "notice", "warn", "error", "critical"])
    )
    var level: String?

    @Option(help: "Only events whose name matches this glob, e.g. 'poll.*'.")
    var event: String?

    @Option(name: [.customShort("n"), .long], parsing: .unconditional, help: "Show only the last N matching lines first (default: all; 10 with -f).")
    var lines: Int?

    @Option(
        help:
            "The systemd unit whose journal to read when no log file is configured (default: twfeed.service; twfeed@NAME.service with --account NAME)."
    )
    var unit: String?

    func validate() throws {
        if let level, LogFilter.level(level) == nil {
            throw ValidationError("--level must be one of trace, debug, info, notice, warn, error, critical; not \"\(level)\"")
        }
        if let lines, lines < 0 { throw ValidationError("--lines must not be negative") }
    }

    func run() async throws {
        let filter = LogFilter(minimumLevel: level.flatMap(LogFilter.level), eventPattern: event)
        let backlog = lines ?? (follow ? 10 : nil)
        try await CommandLineEdge.run {
            let config = try options.loadConfig()
            if let path = config.log.file {
                try await readFile(path, filter: filter, backlog: backlog)
            } else {
                try readJournal(unit: unit ?? config.account?.unit ?? "twfeed.service", filter: filter, backlog: backlog)
            }
        }
    }

    private func readFile(_ path: String, filter: LogFilter, backlog: Int?) async throws {
        guard FileManager.default.fileExists(atPath: path) || !follow else {
            throw TwfeedError(.io, "\(path): no log file yet (is the daemon running with this config?)")
        }
        guard FileManager.default.fileExists(atPath: path) else { return }
        let reader = try LogFileReader(path: path)
        var matching = reader.readLines().filter(filter.matches)
        if let backlog { matching = Array(matching.suffix(backlog)) }
        if !matching.isEmpty { emit(matching.joined(separator: "\n")) }
        guard follow else { return }
        while !Task.isCancelled {
            try await Task.sleep(for: .milliseconds(200))
            let fresh = reader.readLines().filter(filter.matches)
            if !fresh.isEmpty { emit(fresh.joined(separator: "\n")) }
        }
    }

    private func readJournal(unit: String, filter: LogFilter, backlog: Int?) throws {
        let candidates = ["/usr/bin/journalctl", "/bin/journalctl"]
        guard let journalctl = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw TwfeedError(.unavailable, "no log.file in the config and no journalctl to read the journal with")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: journalctl)
        // Filtering happens here (journalctl's -n would count lines before the filter).
        process.arguments = ["-u", unit, "-o", "cat", "--no-pager", "-q"] + (follow ? ["-f", "-n", "all"] : [])
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let handle = pipe.fileHandleForReading
        var partial = Data()
        var held: [String] = []
        var live = false
        // journalctl -f prints the backlog, then follows; the backlog cut is applied to
        // what arrives before the first quiet moment.
        while true {
            let data = handle.availableData
            if data.isEmpty { break }
            partial.append(data)
            var lines: [String] = []
            while let newline = partial.firstIndex(of: UInt8(ascii: "\n")) {
                lines.append(String(decoding: partial[partial.startIndex..<newline], as: UTF8.self))
                partial = partial[partial.index(after: newline)...]
            }
            let matching = lines.filter(filter.matches)
            if live {
                if !matching.isEmpty { emit(matching.joined(separator: "\n")) }
                continue
            }
            held += matching
            if follow && !Self.moreWaiting(handle) {
                live = true
                flush(&held, backlog: backlog)
            }
        }
        flush(&held, backlog: backlog)
        process.waitUntilExit()
        if process.terminationStatus != 0 && !follow {
            throw TwfeedError(.unavailable, "journalctl -u \(unit) failed (status \(process.terminationStatus))")
        }
    }

    private func flush(_ held: inout [String], backlog: Int?) {
        let shown = backlog.map { Array(held.suffix($0)) } ?? held
        if !shown.isEmpty { emit(shown.joined(separator: "\n")) }
        held = []
    }

    /// Whether more output is ready at once (poll with no wait).
    private static func moreWaiting(_ handle: FileHandle) -> Bool {
        var descriptor = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 100) > 0
    }
}
