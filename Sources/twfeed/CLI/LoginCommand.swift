import ArgumentParser
import Foundation
import TwfeedCore
import TwfeedKit
import TwfeedReader
import TwfeedStatus

struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Sign in with a PIN (OAuth 1.0a) and save the access token.",
        discussion: """
            Reads the consumer key and secret from the credentials file (prompting for them when \
            they are missing), prints the page to open, reads the PIN it shows from standard input, \
            and writes the access token into the credentials file (mode 0600), with the \
            account's user id and screen name.
            """
    )

    @OptionGroup var file: CredentialsFileOptions

    func run() async throws {
        try await CommandLineEdge.run {
            let (config, path) = try file.resolve()
            let (consumerKey, consumerSecret) = try consumerPair(path)
            let flow = PINFlow(
                config: config,
                consumerKey: consumerKey,
                consumerSecret: consumerSecret,
                transport: CurlTransport(),
                clock: SystemClock()
            )
            let requestToken = try await flow.requestToken()
            emit("Open this page in a browser, authorize twfeed, and enter the PIN it shows:")
            emit("  " + flow.authorizeURL(requestToken))
            let pin = try Prompt.line("PIN: ")
            let access = try await flow.accessToken(requestToken, pin: pin)
            try Credentials(
                consumerKey: consumerKey,
                consumerSecret: consumerSecret,
                accessToken: access.token,
                accessTokenSecret: access.secret,
                // Who signed in, as X's answer says: what `import` checks an archive against.
                userID: access.userID.flatMap(UserID.init),
                username: access.screenName
            ).write(to: path)
            let who = access.screenName.map { "@\($0)" } ?? access.userID.map { "user \($0)" } ?? "your account"
            emit("Signed in as \(who); the access token is saved in \(path) (mode 0600).")
            if let note = RunningDaemon.tellToReload(config: config, credentialsPath: path, change: "starts polling") {
                emit(note)
            }
        }
    }

    /// From the file when it has them; else asked for.
    private func consumerPair(_ path: String) throws -> (String, String) {
        if FileManager.default.fileExists(atPath: path) {
            do {
                let existing = try Credentials.load(from: path)
                return (existing.consumerKey, existing.consumerSecret)
            } catch let error as TwfeedError where error.code == .configuration && error.message.contains(": missing consumer") {
                // Fall through to the prompts.
            }
        }
        CommandLineEdge.printNote("\(path) has no consumer key yet: enter your app's API key and secret.")
        let key = try Prompt.line("Consumer key (API key): ")
        let secret = try Prompt.line("Consumer secret (API key secret): ", secret: true)
        guard !key.isEmpty, !secret.isEmpty else { throw TwfeedError(.invalidData, "the consumer key and secret must not be empty") }
        return (key, secret)
    }
}

struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout",
        abstract: "Forget the access token; keep the consumer key and secret.",
        discussion: "A running daemon that reads this credentials file stops polling and posting."
    )

    @OptionGroup var file: CredentialsFileOptions

    func run() async throws {
        try await CommandLineEdge.run {
            let (config, path) = try file.resolve()
            let existing = try Credentials.load(from: path)
            guard existing.hasAccessToken else {
                emit("Not signed in: \(path) holds no access token.")
                return
            }
            // The account's id and name go with the token pair they belong to.
            try Credentials(consumerKey: existing.consumerKey, consumerSecret: existing.consumerSecret).write(to: path)
            emit("Signed out: the access token is removed from \(path); the consumer key stays.")
            if let note = RunningDaemon.tellToReload(config: config, credentialsPath: path, change: "stops polling and posting") {
                emit(note)
            }
        }
    }
}

/// What `login` and `logout` share: the global options and the credentials file they
/// rewrite, which is the config's unless `--credentials` names another.
struct CredentialsFileOptions: ParsableArguments {
    @OptionGroup var options: GlobalOptions

    @Option(help: "The credentials file to read and write (default: the config's `credentials`).", completion: .file())
    var credentials: String?

    /// The loaded config and the credentials file's path, `~` and `$VARS` expanded.
    func resolve() throws -> (config: TwfeedConfig, path: String) {
        let config = try options.loadConfig()
        let path = credentials.map { ConfigLoader.expand($0, ProcessInfo.processInfo.environment) } ?? config.credentials
        return (config, path)
    }
}

/// Reaching the daemon that is running, through its status snapshot.
enum RunningDaemon {
    /// Sends SIGHUP when the running daemon reads the credentials file just written;
    /// returns what the user should know, nil when no daemon runs.
    static func tellToReload(config: TwfeedConfig, credentialsPath: String, change: String) -> String? {
        guard let snapshot = StatusSnapshot.read(from: StatusSnapshot.readerPath(config: config)), snapshot.processAlive else {
            return nil
        }
        let daemonPath = snapshot.credentialsPath ?? config.credentials
        // An account's daemon is its instance, twfeed@NAME.
        let unit = config.account.map { String($0.unit.dropLast(".service".count)) } ?? "twfeed"
        guard canonical(daemonPath) == canonical(credentialsPath) else {
            return "The running daemon (pid \(snapshot.pid)) reads its credentials from \(daemonPath), not this file: "
                + "under systemd (LoadCredential=) run: systemctl restart \(unit)"
        }
        if kill(snapshot.pid, SIGHUP) == 0 {
            return "Told the running daemon (pid \(snapshot.pid)) to reload: it \(change)."
        }
        return
            "Could not signal the running daemon (pid \(snapshot.pid)): reload it (systemctl reload \(unit)); it notices within a minute otherwise."
    }

    private static func canonical(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// Questions on the terminal: the prompt goes to standard error, the answer comes from
/// standard input (which a script may feed).
enum Prompt {
    static func line(_ prompt: String, secret: Bool = false) throws -> String {
        FileHandle.standardError.write(Data(prompt.utf8))
        let hide = secret && isatty(STDIN_FILENO) == 1
        var saved = termios()
        if hide {
            tcgetattr(STDIN_FILENO, &saved)
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSANOW, &quiet)
        }
        defer {
            if hide {
                tcsetattr(STDIN_FILENO, TCSANOW, &saved)
                FileHandle.standardError.write(Data("\n".utf8))
            }
        }
        guard let answer = readLine(strippingNewline: true) else {
            throw TwfeedError(.invalidData, "standard input ended before an answer to \"\(prompt.trimmingCharacters(in: .whitespaces))\"")
        }
        return answer.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
