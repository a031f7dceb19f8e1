import Foundation
import TwfeedCore
import TwfeedEmulator
import TwfeedKit
import TwfeedSandbox
import TwfeedStore

extension CostWeek {
    /// One hour without credits in the middle of the measured days: the emulator answers
    /// every API request 402 `CreditsDepleted` (`setCredits(usd: 0)`) from `startMinute`
    /// for 60 minutes, then serves again (`setCredits(usd: nil)`).
    ///
    /// Two statuses are queued the minute before (after that minute's flush, so they are
    /// still queued when the credits run out) and one each 20 and 40 minutes in. The
    /// checks: no status `failed`; each posted exactly once, and only once the credits are
    /// back; at most 5 requests reach the emulator during the hour (its own request log);
    /// 30 minutes after, every feed holds everything the emulator had at the hour's end,
    /// and at the end of the run everything it has.
    struct Outage {
        let startMinute: Int
        private(set) var start: Date?
        private(set) var end: Date?
        private(set) var queued: [(text: String, at: Date)] = []
        /// What the emulator's feeds held when the credits came back.
        private var atEnd: [Feed: [String]] = [:]
        /// What each feed lacked of it 30 minutes later.
        private var missingAfter: [Feed: Int]?

        init(startMinute: Int) {
            self.startMinute = startMinute
        }

        /// Before the minute's polls: the credits run out, or come back.
        mutating func beforeWork(minute: Int, _ simulation: CostSimulation) {
            switch minute - startMinute {
            case 0:
                simulation.emulator.setCredits(usd: 0)
                start = simulation.clock.now()
            case 60:
                simulation.emulator.setCredits(usd: nil)
                end = simulation.clock.now()
                for feed in Feed.polled {
                    atEnd[feed] = simulation.emulator.expectedMembers(feed, dialect: simulation.sandbox.dialect == "v2" ? .v2 : .v1_1)
                }
            default:
                break
            }
        }

        /// After the minute's polls and flush: statuses are queued; the feeds are checked.
        mutating func afterWork(minute: Int, _ simulation: CostSimulation) async throws {
            let offset = minute - startMinute
            switch offset {
            case -1, 20, 40:
                for _ in 0..<(offset == -1 ? 2 : 1) {
                    let text = "cost-week status \(queued.count + 1), queued \(offset < 0 ? "before" : "\(offset) minutes into") the outage"
                    try await simulation.enqueue(text)
                    queued.append((text, simulation.clock.now()))
                }
            case 90:
                var missing: [Feed: Int] = [:]
                for feed in Feed.polled {
                    let stored = try await simulation.stored(feed)
                    missing[feed] = (atEnd[feed] ?? []).filter { !stored.contains($0) }.count
                }
                missingAfter = missing
            default:
                break
            }
        }

        /// The outage's targets; returns the figures for the table.
        func check(_ simulation: CostSimulation, targets: inout CostTargets) async throws -> String {
            guard let start, let end else {
                targets.check("the outage happened", false, "the run was too short for it")
                return "no outage"
            }
            let items = try await simulation.database.outboxItems()
            let failed = items.filter { $0.state == .failed }
            targets.check(
                "0 statuses failed",
                failed.isEmpty && items.count == queued.count && items.allSatisfy { $0.state == .sent },
                "\(items.count) queued: "
                    + Dictionary(grouping: items, by: { "\($0.state)" }).map { "\($1.count) \($0)" }.sorted().joined(separator: ", ")
            )

            let posted = simulation.emulator.postedStatuses
            var wrong: [String] = []
            var latest = 0.0
            for status in queued {
                let copies = posted.filter { $0.text == status.text }
                if copies.count != 1 { wrong.append("\"\(status.text)\" posted \(copies.count) times") }
                for copy in copies where copy.createdAt < end { wrong.append("\"\(status.text)\" posted before the credits came back") }
                if let copy = copies.first { latest = max(latest, copy.createdAt.timeIntervalSince(end)) }
            }
            targets.check(
                "each status posted exactly once after credits are back",
                wrong.isEmpty && posted.count == queued.count,
                wrong.isEmpty ? "\(queued.count) statuses, the last \(Int(latest)) s after the credits came back" : wrong.joined(separator: "; ")
            )

            let during = simulation.emulator.requests.filter { $0.date >= start && $0.date < end }
            targets.check(
                "at most 5 requests during the outage",
                during.count <= 5,
                "\(during.count) (\(during.map { "\($0.endpoint) \($0.status)" }.joined(separator: ", ")))"
            )

            // Everything the emulator has now, after the catch-up: nothing left behind.
            let dialect: EmulatorDialect = simulation.sandbox.dialect == "v2" ? .v2 : .v1_1
            var missingAtEnd: [Feed: Int] = [:]
            for feed in Feed.polled {
                let stored = try await simulation.stored(feed)
                missingAtEnd[feed] = simulation.emulator.expectedMembers(feed, dialect: dialect).filter { !stored.contains($0) }.count
            }
            let after = missingAfter ?? [:]
            let gaps = try await simulation.database.gaps()
            func counts(_ missing: [Feed: Int]) -> String {
                Feed.polled.map { "\($0.rawValue) \(missing[$0] ?? -1)" }.joined(separator: ", ")
            }
            targets.check(
                "feeds complete afterwards",
                missingAfter != nil && after.values.allSatisfy { $0 == 0 } && missingAtEnd.values.allSatisfy { $0 == 0 } && gaps.isEmpty,
                "missing 30 minutes after: \(counts(after)); at the end: \(counts(missingAtEnd)); gaps \(gaps.count)"
            )
            let missing = after.values.reduce(0, +)
            return "402 from \(SimulatedTime(start)) for 1 h: \(during.count) requests; \(queued.count) statuses, \(failed.count) failed, "
                + "each sent once, the last \(Int(latest)) s after; feeds 30 min after: \(missing) posts missing"
        }
    }

    /// A time of the measured days, for people: `day 4, 12:00 UTC`.
    struct SimulatedTime: CustomStringConvertible {
        let date: Date
        init(_ date: Date) { self.date = date }
        var description: String {
            let seconds = Int(date.timeIntervalSince(CostSimulation.firstMidnight))
            let day = seconds / 86_400 + 1
            let minutes = (seconds % 86_400) / 60
            return String(format: "day %d, %02d:%02d UTC", day, minutes / 60, minutes % 60)
        }
    }
}
