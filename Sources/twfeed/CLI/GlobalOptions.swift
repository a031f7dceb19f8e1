import ArgumentParser
import Foundation
import TwfeedCore
import TwfeedKit

/// Options every command takes.
struct GlobalOptions: ParsableArguments {
    @Option(
        name: .long,
        help: "The config file (default: $TWFEED_CONFIG, $CONFIGURATION_DIRECTORY/config.json, ~/.config/twfeed/config.json).",
        completion: .file()
    )
    var config: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The account of the unit twfeed@NAME: its config $CONFIGURATION_DIRECTORY/NAME.json (else /etc/twfeed/NAME.json), its state, cache and runtime directories.",
            valueName: "NAME"
        )
    )
    var account: String?

    func validate() throws {
        guard let account else { return }
        if config != nil { throw ValidationError("--account and --config name two config files: give one") }
        do {
            _ = try HostAccount(account)
        } catch let error as TwfeedError {
            throw ValidationError(error.message)
        }
    }

    /// The account `--account` names (checked by `validate`).
    var hostAccount: HostAccount? {
        get throws { try account.map(HostAccount.init) }
    }

    func loadConfig() throws -> TwfeedConfig {
        try ConfigLoader.load(explicit: config, account: try hostAccount)
    }
}

/// Maps errors to one line on stderr and a distinct exit code: the edge where
/// `TwfeedError` codes become process statuses.
enum CommandLineEdge {
    static func run<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as TwfeedError {
            printError(error.message)
            throw ExitCode(error.code.exitCode)
        }
    }

    static func printError(_ message: String) {
        FileHandle.standardError.write(Data("twfeed: \(message)\n".utf8))
    }

    /// A remark for the user that is not an error (prompts' context).
    static func printNote(_ message: String) {
        FileHandle.standardError.write(Data("\(message)\n".utf8))
    }
}

/// Writes a line to stdout without buffering surprises when piped.
func emit(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
