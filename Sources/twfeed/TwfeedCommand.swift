import ArgumentParser
import Foundation

/// The `twfeed` command line. Each subcommand is thin: it loads what it needs and
/// hands over to TwfeedKit, where the behaviour lives and is tested.
@main
struct TwfeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "twfeed",
        abstract: "Keeps your X/Twitter timelines in a local SQLite database and posts for you when the network allows.",
        discussion: """
            The config file is --config, else $TWFEED_CONFIG, $CONFIGURATION_DIRECTORY/config.json or \
            ~/.config/twfeed/config.json. Exit status: 0 success, 64 usage, 65 invalid data (a status too \
            long), 69 service unavailable, 74 I/O error, 75 temporary failure, 77 permission (a credentials \
            file others can read), 78 configuration error; twfeed status: 0 healthy, 1 degraded, 3 not running.
            """,
        version: TwfeedVersion.current,
        subcommands: [
            RunCommand.self, StatusCommand.self, FeedCommand.self, SearchCommand.self, PostCommand.self, ThreadCommand.self, DeleteCommand.self,
            OutboxCommand.self, OpenCommand.self,
            ShowCommand.self, FetchCommand.self,
            ServeCommand.self, UsageCommand.self, GapsCommand.self, FillCommand.self, LoginCommand.self, LogoutCommand.self, LogsCommand.self,
            DemoCommand.self, ImportCommand.self,
        ]
    )

    /// `--config` and `--account` may come before the command's name too (`twfeed
    /// --account alice status`): parsed here, ArgumentParser hands the same values to
    /// each command's own `GlobalOptions`.
    @OptionGroup var options: GlobalOptions

    /// ArgumentParser's own `main`, except that a usage error is one line naming the
    /// culprit (exit 64), as every other bad input is, not the message plus the usage
    /// block. Help, `--version` and the errors the commands have already printed
    /// (`ExitCode`) go through ArgumentParser unchanged.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            let message = message(for: error)
            if code == .success || error is ExitCode || message.isEmpty { exit(withError: error) }
            let line = message.split(separator: "\n").first.map(String.init) ?? message
            let trimmed = line.hasPrefix("Error: ") ? String(line.dropFirst("Error: ".count)) : line
            FileHandle.standardError.write(Data("twfeed: \(trimmed) (see twfeed --help)\n".utf8))
            Foundation.exit(code.rawValue)
        }
    }
}
