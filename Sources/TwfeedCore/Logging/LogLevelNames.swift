import Logging

/// How twfeed spells swift-log's levels, in one table: what the log lines say, and
/// which other names users may write (in the config, and to `twfeed logs --level`).
extension Logger.Level {
    /// Names accepted besides swift-log's own (`trace` … `critical`).
    static let aliases: [String: Logger.Level] = ["warn": .warning, "err": .error, "crit": .critical, "fatal": .critical]
    /// The aliases the config file accepts (it is exact about case); `twfeed logs`
    /// accepts them all, in any case, since it reads what people type.
    static let configAliases: Set<String> = ["warn", "err"]

    /// A level as the config file spells it: `log.level`.
    package init?(configName text: String) {
        guard let level = Logger.Level(rawValue: text) ?? (Self.configAliases.contains(text) ? Self.aliases[text] : nil)
        else { return nil }
        self = level
    }

    /// A level as users write it on the command line: any case, any alias.
    package init?(userName text: String) {
        let lowered = text.lowercased()
        guard let level = Logger.Level(rawValue: lowered) ?? Self.aliases[lowered] else { return nil }
        self = level
    }

    /// The name a log line carries: `warn` (as syslog and journald write it), else
    /// swift-log's own.
    package var lineName: String {
        self == .warning ? "warn" : rawValue
    }
}
