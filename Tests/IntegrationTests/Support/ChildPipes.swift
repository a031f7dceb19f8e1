import Foundation

/// The test's ends of a child process's standard streams, on pipes that no other child
/// inherits.
///
/// Foundation's `Pipe` is not close-on-exec. `Process.run()` closes the other
/// descriptors in the child from the highest one open when it looked; a pipe that another
/// test opens a moment later, on another thread, stays open in that child. The reader of
/// that pipe then waits for the end of an unrelated child (a curl, a `twfeed run`) instead
/// of its own, and a wait that blocks a thread of the cooperative pool (one per core) can
/// hold up the very task that would end that child. Here both ends are close-on-exec from
/// the start: a socket pair, as Swift's Glibc has no `pipe2`, read and written like a pipe.
/// The child gets its end through `dup2`, which clears the flag on the copy.
struct ChildPipes {
    /// Standard input's writing end, nil when the child reads /dev/null.
    let input: FileHandle?
    /// Standard output's reading end (standard error's too with `.sameAsOutput`).
    let output: FileHandle
    /// Standard error's reading end, nil unless `.pipe`.
    let error: FileHandle?

    enum ErrorStream {
        /// A pipe of its own.
        case pipe
        /// The same pipe as standard output.
        case sameAsOutput
        /// What the caller gave `process.standardError` (a log file, /dev/null).
        case asGiven
    }

    /// Gives `process` the pipes, runs it, and closes the test's copies of the ends the
    /// child holds (Foundation does that only for its own `Pipe`), so that reading to the
    /// end of `output` ends when the child exits.
    static func run(_ process: Process, input: Bool = false, error: ErrorStream = .pipe) throws -> ChildPipes {
        let stdin = input ? try pair() : nil
        let stdout = try pair()
        let stderr = error == .pipe ? try pair() : nil
        process.standardInput = stdin?.reading ?? FileHandle.nullDevice
        process.standardOutput = stdout.writing
        switch error {
        case .pipe: process.standardError = stderr?.writing
        case .sameAsOutput: process.standardError = stdout.writing
        case .asGiven: break
        }
        defer {
            try? stdin?.reading.close()
            try? stdout.writing.close()
            try? stderr?.writing.close()
        }
        try process.run()
        return ChildPipes(input: stdin?.writing, output: stdout.reading, error: stderr?.reading)
    }

    static func pair() throws -> (reading: FileHandle, writing: FileHandle) {
        var descriptors: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &descriptors) == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        return (FileHandle(fileDescriptor: descriptors[0], closeOnDealloc: true),
                FileHandle(fileDescriptor: descriptors[1], closeOnDealloc: true))
    }
}
