import ArgumentParser
import Foundation
import TwfeedBase
import TwfeedBilling
import TwfeedCore
import TwfeedKit
import TwfeedReader
import TwfeedStatus

struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Health of the daemon, each feed, the outbox and the image cache.",
        discussion: "Exit status: 0 healthy, 1 degraded (errors, stale heartbeat), 3 not running."
    )

    @OptionGroup var options: GlobalOptions

    @Flag(help: "One JSON object.")
    var json = false

    func run() async throws {
        let report = try await CommandLineEdge.run {
            let config = try options.loadConfig()
            return try await StatusReport.collect(config: config, statusPath: StatusSnapshot.readerPath(config: config))
        }
        emit(json ? report.json.serialized : StatusPresenter.table(report))
        if report.health != .healthy { throw ExitCode(report.health.exitCode) }
    }
}

/// The human form of `twfeed status`: a compact table that fits 80 columns.
enum StatusPresenter {
    static func table(_ report: StatusReport) -> String {
        var lines: [String] = []
        var health = report.health.label
        if report.running, let snapshot = report.snapshot {
            let uptime = duration(report.now.timeIntervalSince(snapshot.startedAt))
            let beat = duration(report.heartbeatAge ?? 0)
            if snapshot.signedOut == true { health += " (signed out)" }
            if let age = report.heartbeatAge, age > StatusReport.staleAfter { health += " (hung?)" }
            lines.append("daemon    running, pid \(snapshot.pid), up \(uptime), heartbeat \(beat) ago: \(health)")
        } else {
            lines.append("daemon    not running")
        }
        if let account = report.account {
            lines.append("account   " + (account.username.map { "@\($0) " } ?? "") + "(user id \(account.id))")
        }
        lines.append(
            pad("feed", 10) + pad("tweets", 8, right: true) + "  " + pad("last poll", 11) + pad("next poll", 11) + pad("rate left", 11) + "error"
        )
        for feed in report.feeds {
            guard feed.enabled || feed.stats.tweets > 0 else { continue }
            let last = feed.sync.lastPollAt.map { duration(report.now.timeIntervalSince($0)) + " ago" } ?? "never"
            let next = feed.enabled ? (feed.sync.nextPollAt.map { relative($0, report.now) } ?? "now") : "disabled"
            let rate = feed.sync.rateLimit.map { "\($0.remaining)/\($0.limit)" } ?? "-"
            let error = feed.sync.lastError.map { String($0.description.prefix(24)) } ?? "-"
            lines.append(
                pad(feed.feed.rawValue, 10) + pad(String(feed.stats.tweets), 8, right: true) + "  "
                    + pad(last, 11) + pad(next, 11) + pad(rate, 11) + error
            )
        }
        let counts = OutboxState.allCases.compactMap { state -> String? in
            let count = report.outbox[state] ?? 0
            return count > 0 || state == .pending ? "\(count) \(state.rawValue)" : nil
        }
        var outbox = "outbox    " + counts.joined(separator: " · ")
        if let oldest = report.oldestPendingAgeSeconds { outbox += " (oldest \(duration(oldest)))" }
        lines.append(outbox)
        if let spend = report.spend {
            var line = "spend     \(spend.today.formatted) today, \(spend.cycle.formatted) this cycle (from \(spend.cycleStart))"
            if let budget = spend.budget { line += " of \(budget.formatted)" }
            lines.append(line)
            // A line of its own: after the budget it would not fit in 80 columns.
            if spend.emulated == true { lines.append("          \(TwfeedConfig.API.playMoneyNote)") }
            let state = spend.billingState
            if state != .ok {
                let since = spend.since.map { " since \(Timestamp.iso8601($0))" } ?? ""
                lines.append("billing   \(state.rawValue)\(since): \(state.advice)")
            }
            for (source, refusal) in spend.refusals.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                let advice = NotPermittedReason(rawValue: refusal.reason)?.advice ?? refusal.detail
                lines.append("refused   \(source.rawValue) (\(refusal.reason)): \(advice)")
            }
        }
        lines.append("images    \(report.imageFiles) files, \(bytes(report.imageBytes))")
        let size = "database  \(bytes(report.databaseBytes))  "
        lines.append(size + leftTruncated(report.databasePath, width - size.count))
        if report.countsFrom == "snapshot" {
            lines.append("(counts from the daemon's status snapshot: the database is not readable here)")
        }
        return lines.map { fit($0) }.joined(separator: "\n")
    }

    static let width = 80

    /// Cuts a line to the terminal width the table promises.
    static func fit(_ line: String) -> String {
        line.count <= width ? line : String(line.prefix(width - 1)) + "…"
    }

    /// Keeps the end of a path, which names the file.
    static func leftTruncated(_ text: String, _ room: Int) -> String {
        text.count <= room ? text : "…" + String(text.suffix(max(1, room - 1)))
    }

    static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return right ? padding + text : text + padding
    }

    static func duration(_ seconds: Double) -> String {
        let value = Int(max(0, seconds))
        if value < 120 { return "\(value)s" }
        if value < 7200 { return "\(value / 60)m" }
        if value < 172_800 { return "\(value / 3600)h\(String(format: "%02d", value % 3600 / 60))m" }
        return "\(value / 86400)d"
    }

    static func relative(_ date: Date, _ now: Date) -> String {
        let delta = date.timeIntervalSince(now)
        return delta <= 0 ? "due" : "in " + duration(delta)
    }

    static func bytes(_ count: Int64) -> String {
        if count < 1024 { return "\(count) B" }
        if count < 1 << 20 { return String(format: "%.1f KB", Double(count) / 1024) }
        return String(format: "%.1f MB", Double(count) / 1_048_576)
    }
}
