import Foundation
import Synchronization
import TwfeedCore
import TwfeedStatus
import TwfeedStore

/// The daemon's live status: what the `Heartbeat` writes to the world-readable snapshot
/// and what systemd's `STATUS=` line says. One board lives as long as the process, so
/// `startedAt` survives reloads.
package final class StatusBoard: Sendable {
    private struct State {
        var snapshot: StatusSnapshot
        var config: TwfeedConfig
        var database: AppDatabase?
        var lastOutcomes: [Feed: PollOutcome] = [:]
        var cycleSinceLastLine = false
        var fullCountAt: Date?
    }

    private let state: Mutex<State>
    /// Rung after each cycle so the heartbeat refreshes the counts at once.
    package let changed = Doorbell()

    /// How often the feeds are counted and the image cache folder is walked when no
    /// cycle asks for it (a big database or cache makes these the costly part); the
    /// outbox and the file sizes are read at every beat.
    static let fullRecountInterval: Double = 60

    package init(config: TwfeedConfig, database: AppDatabase?, startedAt: Date, pid: Int32 = getpid()) {
        var snapshot = StatusSnapshot(pid: pid, startedAt: startedAt, heartbeatAt: startedAt, dialect: config.api.dialect.rawValue)
        snapshot.credentialsPath = config.credentials
        snapshot.processStartTicks = ProcessLiveness.startTicks(of: pid)
        state = Mutex(State(snapshot: snapshot, config: config, database: database))
    }

    package var snapshot: StatusSnapshot { state.withLock { $0.snapshot } }

    /// The store the board counts, the one the daemon writes now (a reload may change it).
    var database: AppDatabase? { state.withLock { $0.database } }

    /// A reload may change the feeds, the dialect, the database and the sign-in.
    package func reconfigure(config: TwfeedConfig, database: AppDatabase?, signedOut: Bool) {
        state.withLock { state in
            state.config = config
            state.database = database
            state.snapshot.dialect = config.api.dialect.rawValue
            state.snapshot.credentialsPath = config.credentials
            state.snapshot.signedOut = signedOut ? true : nil
            state.lastOutcomes = state.lastOutcomes.filter { config.enabledFeeds.contains($0.key) }
            state.cycleSinceLastLine = true
        }
        changed.ring()
    }

    /// A poller finished a cycle.
    package func record(_ feed: Feed, _ outcome: PollOutcome) {
        state.withLock { state in
            state.lastOutcomes[feed] = outcome
            state.cycleSinceLastLine = true
        }
        changed.ring()
    }

    /// Re-reads the counts from the database (a few indexed queries) and the sizes
    /// from the file system; returns the updated snapshot.
    @discardableResult
    package func refresh(now: Date) async -> StatusSnapshot {
        let (config, database, full, previous) = state.withLock { state in
            let due = state.fullCountAt.map { now.timeIntervalSince($0) >= Self.fullRecountInterval || $0 > now } ?? true
            return (state.config, state.database, due || state.cycleSinceLastLine, state.snapshot.counts)
        }
        var counts = previous
        if let database,
            let fresh = try? await StatusSnapshot.Counts.read(config: config, database: database.reader, now: now, previous: previous, full: full)
        {
            counts = fresh
        }
        return state.withLock { state in
            state.snapshot.heartbeatAt = now
            state.snapshot.counts = counts
            if full { state.fullCountAt = now }
            return state.snapshot
        }
    }

    /// The `STATUS=` line once a cycle has ended since it was last taken; nil otherwise.
    package func takeStatusLine() -> String? {
        state.withLock { state in
            guard state.cycleSinceLastLine else { return nil }
            state.cycleSinceLastLine = false
            let line = Self.statusLine(state)
            state.snapshot.lastCycle = line
            return line
        }
    }

    /// `home +12 · mentions 0 · outbox 2 pending`.
    private static func statusLine(_ state: State) -> String {
        if state.snapshot.signedOut == true { return "signed out: no access token (run twfeed login)" }
        var parts: [String] = []
        for feed in state.config.enabledFeeds {
            guard let outcome = state.lastOutcomes[feed] else {
                parts.append("\(feed.rawValue) waiting")
                continue
            }
            if let error = outcome.error {
                parts.append("\(feed.rawValue) " + (error.status > 0 ? "error \(error.status)" : "error"))
            } else {
                parts.append("\(feed.rawValue) " + (outcome.newTweets > 0 ? "+\(outcome.newTweets)" : "0"))
            }
        }
        let pending = (state.snapshot.counts?.outbox ?? [:]).filter(\.key.isUnderway).values.reduce(0, +)
        parts.append("outbox \(pending) pending")
        return parts.joined(separator: " · ")
    }
}
