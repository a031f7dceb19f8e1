/// One of the accounts a host runs, each as its own instance of `twfeed@.service`
/// (`--account NAME`): its config is `NAME.json` in the configuration directory, and its
/// state, cache, runtime and log directories are the instance's own.
///
/// A command run from a shell has none of the `$STATE_DIRECTORY`-style variables the unit
/// sets, so the account supplies the same paths the unit would: `twfeed --account alice
/// status` then reads `/run/twfeed/alice/status.json` and `/var/lib/twfeed/alice`, the
/// files `twfeed@alice` writes. The two must agree, so the unit's directory settings
/// (`StateDirectory=twfeed/%i` and the rest) and these paths change together.
package struct HostAccount: Sendable, Equatable {
    package let name: String

    /// Where the packaged units keep an account's config, and the instances' files.
    package static let configurationDirectory = "/etc/twfeed"
    static let stateRoot = "/var/lib/twfeed"
    static let cacheRoot = "/var/cache/twfeed"
    static let runtimeRoot = "/run/twfeed"
    static let logsRoot = "/var/log/twfeed"

    /// Names that already mean another file in `/etc/twfeed`: `config.json` is the single
    /// unit's config and `credentials.json` its credentials.
    static let reserved: Set<String> = ["config", "credentials"]

    /// The name becomes a file name, a systemd instance name (`%i`, which systemd leaves
    /// as it is only for these characters) and the instance's user, `twfeed-NAME`, which
    /// must stay within 31 characters: so letters, digits, `_` and `-` (not first), at
    /// most 24 of them. A path separator or an empty name is a usage error naming it.
    package init(_ name: String) throws {
        let allowed = name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "-"
        }
        guard !name.isEmpty else { throw TwfeedError(.usage, "--account: the account name is empty") }
        guard allowed, !name.hasPrefix("-"), name.count <= Self.maxLength else {
            throw TwfeedError(
                .usage,
                "--account: \"\(name)\" is not an account name (letters, digits, _ and - only, not - first, at most \(Self.maxLength))"
            )
        }
        guard !Self.reserved.contains(name) else {
            throw TwfeedError(.usage, "--account: \"\(name)\" names another file in /etc/twfeed; choose another name")
        }
        self.name = name
    }

    static let maxLength = 24

    /// `$CONFIGURATION_DIRECTORY/NAME.json` (the unit sets it), else `/etc/twfeed/NAME.json`.
    package func configPath(environment: [String: String]) -> String {
        let directory = environment["CONFIGURATION_DIRECTORY"]?.split(separator: ":").first.map(String.init)
        return "\(directory ?? Self.configurationDirectory)/\(name).json"
    }

    /// The instance's directories (`StateDirectory=twfeed/%i` and the rest).
    package var stateDirectory: String { "\(Self.stateRoot)/\(name)" }
    package var cacheDirectory: String { "\(Self.cacheRoot)/\(name)" }
    package var runtimeDirectory: String { "\(Self.runtimeRoot)/\(name)" }
    package var logsDirectory: String { "\(Self.logsRoot)/\(name)" }

    /// The credentials file on the host that the unit's `LoadCredential=` copies in, and
    /// that `twfeed --account NAME login` writes from a shell.
    package var credentialsPath: String { "\(Self.configurationDirectory)/credentials/\(name).json" }

    /// The instance's unit, for messages (`systemctl restart twfeed@alice`) and `logs`.
    package var unit: String { "twfeed@\(name).service" }
}
