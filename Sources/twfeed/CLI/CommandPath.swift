import Foundation

/// This binary as the user can type it, for the commands a command prints to be pasted
/// (`twfeed demo`'s hints). Before installation only `.build/release/twfeed` exists, and
/// a hint saying `twfeed …` would answer "command not found".
enum CommandPath {
    /// `twfeed` when the user's PATH finds this very file (installed); else the path the
    /// binary was started by, which the user's shell resolves the same way (relative to
    /// the working directory, which twfeed never changes, or absolute); else, for a bare
    /// name PATH maps elsewhere, the absolute path of this file.
    static func typed(
        argument0: String = CommandLine.arguments.first ?? "twfeed",
        executable: String = Bundle.main.executablePath ?? "/proc/self/exe",
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String {
        let running = resolved(executable)
        let name = (argument0 as NSString).lastPathComponent
        let onPath = (environment["PATH"] ?? "").split(separator: ":").map { "\($0)/\(name)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
        if let onPath, resolved(onPath) == running { return shellQuoted(name) }
        if argument0.contains("/") { return shellQuoted(argument0) }
        return shellQuoted(running)
    }

    /// `text` as one shell word: unchanged when it needs no quoting, else in single quotes.
    static func shellQuoted(_ text: String) -> String {
        let plain = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:@%+=,-")
        if !text.isEmpty && text.unicodeScalars.allSatisfy(plain.contains) { return text }
        return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    private static func resolved(_ path: String) -> String {
        URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    }
}
