import ArgumentParser

/// The `twfeed` command line. Each subcommand is thin: it loads what it needs and
/// hands over to TwfeedKit, where the behaviour lives and is tested.
@main
struct TwfeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "twfeed",
        abstract: "Keeps your X/Twitter timelines in a local SQLite database and posts for you when the network allows.",
        version: "0.1.0",
        subcommands: [
            RunCommand.self, StatusCommand.self, FeedCommand.self, SearchCommand.self, PostCommand.self, OutboxCommand.self,
            LoginCommand.self, LogoutCommand.self, LogsCommand.self, DemoCommand.self,
        ]
    )
}
