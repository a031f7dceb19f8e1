import Foundation
import Glibc

/// Wall time of whole `twfeed` processes, as a user sees them: posix_spawn to waitpid,
/// output to /dev/null, with a budget after which the process is killed (the old read
/// path took minutes at a million tweets; the table then says "> budget").
enum ProcessTimer {
    struct Run {
        let seconds: Double
        let status: Int32
        let timedOut: Bool
    }

    /// One run of `binary arguments`.
    static func run(_ binary: String, _ arguments: [String], budget: Double = 60) throws -> Run {
        let started = DispatchTime.now()
        let pid = try spawn(binary, arguments)
        let finished = ManagedFlag()
        let victim = pid
        DispatchQueue.global().asyncAfter(deadline: .now() + budget) {
            if !finished.isSet {
                finished.timedOut = true
                kill(victim, SIGKILL)
            }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let seconds = Bench.elapsed(since: started)
        finished.isSet = true
        let exit = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Run(seconds: seconds, status: exit, timedOut: finished.timedOut)
    }

    /// The median of `runs` runs that must exit 0, or nil when the first run used up the
    /// budget (then it is not repeated).
    static func median(_ binary: String, _ arguments: [String], runs: Int, budget: Double = 60) throws -> Double? {
        var times: [Double] = []
        for _ in 0..<runs {
            let run = try run(binary, arguments, budget: budget)
            if run.timedOut { return nil }
            guard run.status == 0 else {
                throw BenchError("twfeed \(arguments.joined(separator: " ")) exited \(run.status)")
            }
            times.append(run.seconds)
        }
        return Bench.median(times)
    }
}

/// Set once by the waiting thread, read by the budget's timer.
final class ManagedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var _isSet = false
    private var _timedOut = false
    var isSet: Bool {
        get { lock.withLock { _isSet } }
        set { lock.withLock { _isSet = newValue } }
    }
    var timedOut: Bool {
        get { lock.withLock { _timedOut } }
        set { lock.withLock { _timedOut = newValue } }
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension ProcessTimer {
    /// Starts `binary arguments` with its output to `stdout` (a file, created 0600) and
    /// its errors to /dev/null; the caller waits for it.
    static func spawn(_ binary: String, _ arguments: [String], stdout: String = "/dev/null") throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([binary] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, binary, &actions, nil, argv, environ)
        guard spawned == 0 else { throw BenchError("cannot start \(binary): \(String(cString: strerror(spawned)))") }
        return pid
    }
}
