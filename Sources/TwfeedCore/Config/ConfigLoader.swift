import Foundation
import Logging
import TwfeedBilling

/// Finds, reads and validates `config.json`.
///
/// Every mistake gets one line naming the file, the key path and what is wrong, and
/// the configuration exit code (78): a daemon that half-understands its config is
/// worse than one that refuses to start.
package enum ConfigLoader {
    /// `--config`, else `--account`'s `NAME.json`, else `$TWFEED_CONFIG`, else
    /// `$CONFIGURATION_DIRECTORY/config.json`, else `~/.config/twfeed/config.json`. The
    /// last is optional: a missing default file means all defaults. A path the user
    /// named, or an account's file, must exist.
    package static func locate(
        explicit: String?,
        account: HostAccount? = nil,
        environment: [String: String]
    ) -> (path: String, required: Bool) {
        if let explicit { return (expand(explicit, environment), true) }
        if let account { return (account.configPath(environment: environment), true) }
        if let path = environment["TWFEED_CONFIG"], !path.isEmpty { return (expand(path, environment), true) }
        if let directory = environment["CONFIGURATION_DIRECTORY"]?.split(separator: ":").first {
            return ("\(directory)/config.json", true)
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return ("\(home)/.config/twfeed/config.json", false)
    }

    package static func load(
        explicit: String? = nil,
        account: HostAccount? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> TwfeedConfig {
        let (path, required) = locate(explicit: explicit, account: account, environment: environment)
        // stat, not FileManager's fileExists: that is false for a file in a folder the
        // user may not enter, which is there but unreadable, not missing. Anything but
        // missing is WholeFile's to report, in the system's words.
        var info = stat()
        if stat(path, &info) != 0, errno == ENOENT || errno == ENOTDIR {
            if required { throw TwfeedError(.configuration, "\(path): config file not found") }
            return TwfeedConfig(environment: environment)
        }
        let data = try WholeFile.read(path, what: "config file")
        var configuration = try parse(data, path: path, environment: environment, account: account)
        configuration.sourcePath = path
        return configuration
    }

    package static func parse(
        _ data: Data,
        path: String,
        environment: [String: String],
        account: HostAccount? = nil
    ) throws -> TwfeedConfig {
        let root: JSONValue
        do {
            root = try JSONValue.parse(data)
        } catch let error as JSONValue.ParseError {
            throw TwfeedError(.configuration, "\(path): invalid JSON at line \(error.line), column \(error.column): \(error.reason)")
        }
        var reader = Reader(path: path, environment: environment, account: account)
        return try reader.read(root)
    }

    /// Expands a leading `~` and `$HOME`.
    package static func expand(_ path: String, _ environment: [String: String]) -> String {
        let home = environment["HOME"] ?? NSHomeDirectory()
        if path == "~" { return home }
        if path.hasPrefix("~/") { return home + path.dropFirst(1) }
        return path
    }
}

/// The upper bounds of the numeric keys (docs/INTERFACE.md, "Config ranges"): each is
/// far beyond any sensible setting and small enough that no arithmetic on it can trap.
enum Limits {
    /// A day: feeds and the outbox's flush.
    static let intervalSeconds: Double = 86_400
    /// 1 TiB of images.
    static let maxCacheMB = 1_048_576
    /// Ten years.
    static let revalidateDays: Double = 3_650
    /// A year in the queue.
    static let maxAgeHours: Double = 8_760
    /// A month between the retweets feed's full walks.
    static let fullWalkHours = 720
}

/// Walks the JSON against the schema, tracking the key path for messages.
private struct Reader {
    let path: String
    let environment: [String: String]
    let account: HostAccount?

    /// The whole file has no key path: it is named "the top level" (not an empty name).
    func fail(_ keyPath: String, _ problem: String) -> TwfeedError {
        TwfeedError(.configuration, "\(path): \(keyPath.isEmpty ? "the top level" : keyPath): \(problem)")
    }

    func object(_ value: JSONValue, _ keyPath: String, allowed: [String]) throws -> [String: JSONValue] {
        guard case .object(let object) = value else { throw fail(keyPath, "must be an object, not \(value.typeName)") }
        for key in object.keys.sorted() where !allowed.contains(key) {
            let full = keyPath.isEmpty ? key : "\(keyPath).\(key)"
            throw TwfeedError(.configuration, "\(path): \(full): unknown key (allowed: \(allowed.joined(separator: ", ")))")
        }
        return object
    }

    func string(_ value: JSONValue, _ keyPath: String) throws -> String {
        guard case .string(let string) = value else { throw fail(keyPath, "must be a string, not \(value.typeName)") }
        return string
    }

    func number(
        _ value: JSONValue,
        _ keyPath: String,
        minimum: Double,
        maximum: Double = .greatestFiniteMagnitude
    ) throws -> Double {
        guard let number = value.double else { throw fail(keyPath, "must be a number, not \(value.typeName)") }
        guard number >= minimum, number <= maximum else {
            let bound = maximum == .greatestFiniteMagnitude ? "at least \(format(minimum))" : "between \(format(minimum)) and \(format(maximum))"
            throw fail(keyPath, "\(format(number)) is out of range: must be \(bound)")
        }
        return number
    }

    /// A whole number in range; `2.5` or `1e19` is refused, never truncated or trapped on.
    func integer(_ value: JSONValue, _ keyPath: String, minimum: Int, maximum: Int) throws -> Int {
        let number = try number(value, keyPath, minimum: Double(minimum), maximum: Double(maximum))
        guard number == number.rounded() else { throw fail(keyPath, "\(format(number)) must be a whole number") }
        return Int(number)
    }

    /// An amount of dollars, exact to the micro-dollar: `0.0051` is refused, not rounded,
    /// since the API bills in whole micro-dollars and a rounded price would drift the ledger.
    func money(_ value: JSONValue, _ keyPath: String) throws -> MicroUSD {
        guard case .number(let text) = value else { throw fail(keyPath, "must be a number of dollars, not \(value.typeName)") }
        do {
            return try MicroUSD(parsing: text)
        } catch {
            throw fail(keyPath, "\(text) \(error)")
        }
    }

    /// `api.prices`: the published rates with the file's entries applied; an unknown key
    /// is refused (a misspelt `postCreateWithUrl` would silently keep the $0.200 rate).
    func prices(_ value: JSONValue) throws -> Prices {
        let names = BillableKind.allCases.map(\.configName)
        let fields = try object(value, "api.prices", allowed: names)
        var prices = Prices.published
        for kind in BillableKind.allCases {
            guard let entry = fields[kind.configName] else { continue }
            prices[kind] = try money(entry, "api.prices.\(kind.configName)")
        }
        return prices
    }

    func bool(_ value: JSONValue, _ keyPath: String) throws -> Bool {
        guard case .bool(let bool) = value else { throw fail(keyPath, "must be true or false, not \(value.typeName)") }
        return bool
    }

    /// A string naming one of a closed set; else `unknown <noun> "<text>" (use <choices>)`.
    func choice<T>(
        _ value: JSONValue,
        _ keyPath: String,
        noun: String,
        choices: String,
        _ parse: (String) -> T?
    ) throws -> T {
        let text = try string(value, keyPath)
        guard let result = parse(text) else { throw fail(keyPath, "unknown \(noun) \"\(text)\" (use \(choices))") }
        return result
    }

    func format(_ number: Double) -> String {
        // Int(1e19) would trap: only small whole numbers are printed as integers.
        number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }

    mutating func read(_ root: JSONValue) throws -> TwfeedConfig {
        var config = TwfeedConfig(environment: environment, account: account)
        let top = try object(root, "", allowed: ["api", "credentials", "feeds", "storage", "images", "outbox", "log", "http", "graph"])
        if let api = top["api"] {
            let fields = try object(
                api,
                "api",
                allowed: ["dialect", "baseURL", "timeoutSeconds", "ownsApp", "prices", "budget", "creditsRecheckMinutes"]
            )
            if let value = fields["dialect"] {
                config.api.dialect = try choice(
                    value,
                    "api.dialect",
                    noun: "dialect",
                    choices: #""v2" or "v1.1""#,
                    TwfeedConfig.Dialect.init(rawValue:)
                )
            }
            if let value = fields["baseURL"], value != .null {
                let text = try string(value, "api.baseURL")
                guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
                    scheme == "http" || scheme == "https", url.host != nil
                else {
                    throw fail("api.baseURL", "\"\(text)\" is not an http(s) URL")
                }
                guard url.query == nil, url.path.isEmpty || url.path == "/" else {
                    throw fail("api.baseURL", "\"\(text)\" must have no path or query (twfeed adds /2/ or /1.1/)")
                }
                config.api.baseURL = text
            }
            if let value = fields["timeoutSeconds"] {
                config.api.timeoutSeconds = try number(value, "api.timeoutSeconds", minimum: 1, maximum: 600)
            }
            if let value = fields["ownsApp"] { config.api.ownsApp = try bool(value, "api.ownsApp") }
            if let value = fields["prices"] { config.api.prices = try prices(value) }
            if let value = fields["budget"] {
                let budget = try object(value, "api.budget", allowed: ["monthlyUSD", "cycleStartDay"])
                if let amount = budget["monthlyUSD"], amount != .null {
                    config.api.budget.monthlyUSD = try money(amount, "api.budget.monthlyUSD")
                }
                if let day = budget["cycleStartDay"] {
                    config.api.budget.cycleStartDay = try integer(day, "api.budget.cycleStartDay", minimum: 1, maximum: 28)
                }
            }
            if let value = fields["creditsRecheckMinutes"] {
                config.api.creditsRecheckMinutes = try integer(
                    value,
                    "api.creditsRecheckMinutes",
                    minimum: 1,
                    maximum: 24 * 60
                )
            }
        }
        if let value = top["credentials"] {
            config.credentials = ConfigLoader.expand(try string(value, "credentials"), environment)
        }
        if let feeds = top["feeds"] {
            let fields = try object(feeds, "feeds", allowed: Feed.polled.map(\.rawValue))
            for feed in Feed.polled {
                guard let value = fields[feed.rawValue] else { continue }
                let keyPath = "feeds.\(feed.rawValue)"
                let settings = try object(
                    value,
                    keyPath,
                    allowed: feed == .retweets
                        ? ["enabled", "intervalSeconds", "fullWalkHours"] : ["enabled", "intervalSeconds"]
                )
                if let enabled = settings["enabled"] {
                    config.feeds[feed]?.enabled = try bool(enabled, "\(keyPath).enabled")
                }
                if let interval = settings["intervalSeconds"] {
                    config.feeds[feed]?.intervalSeconds = try number(
                        interval,
                        "\(keyPath).intervalSeconds",
                        minimum: 15,
                        maximum: Limits.intervalSeconds
                    )
                }
                if let hours = settings["fullWalkHours"] {
                    config.feeds[feed]?.fullWalkHours = try integer(hours, "\(keyPath).fullWalkHours", minimum: 1, maximum: Limits.fullWalkHours)
                }
            }
        }
        if let storage = top["storage"] {
            let fields = try object(storage, "storage", allowed: ["database", "imageCache", "keepDays"])
            if let value = fields["database"] {
                config.storage.database = ConfigLoader.expand(try string(value, "storage.database"), environment)
            }
            if let value = fields["imageCache"] {
                config.storage.imageCache = ConfigLoader.expand(try string(value, "storage.imageCache"), environment)
            }
            if let value = fields["keepDays"] {
                config.storage.keepDays = try integer(value, "storage.keepDays", minimum: 0, maximum: 36_500)
            }
        }
        if let images = top["images"] {
            let fields = try object(
                images,
                "images",
                allowed: [
                    "enabled", "photos", "size", "maxCacheMB", "revalidateDays", "allowedHosts", "allowInsecureLoopback",
                    "concurrency", "timeoutSeconds",
                ]
            )
            if let value = fields["enabled"] { config.images.enabled = try bool(value, "images.enabled") }
            if let value = fields["photos"] { config.images.photos = try bool(value, "images.photos") }
            if let value = fields["size"] {
                // The sizes are `ImagePolicy.Size`'s: listed there only.
                let names = ImagePolicy.Size.allCases.map(\.rawValue)
                let list = names.dropLast().joined(separator: ", ") + " or " + names.last!
                config.images.size = try choice(value, "images.size", noun: "size", choices: list) {
                    ImagePolicy.Size(rawValue: $0)?.rawValue
                }
            }
            if let value = fields["maxCacheMB"] {
                config.images.maxCacheMB = try integer(value, "images.maxCacheMB", minimum: 1, maximum: Limits.maxCacheMB)
            }
            if let value = fields["revalidateDays"] {
                config.images.revalidateDays = try number(value, "images.revalidateDays", minimum: 0, maximum: Limits.revalidateDays)
            }
            if let value = fields["allowedHosts"] {
                guard case .array(let hosts) = value else {
                    throw fail("images.allowedHosts", "must be an array of host names, not \(value.typeName)")
                }
                config.images.allowedHosts = try hosts.enumerated().map { try string($1, "images.allowedHosts[\($0)]").lowercased() }
            }
            if let value = fields["allowInsecureLoopback"] {
                config.images.allowInsecureLoopback = try bool(value, "images.allowInsecureLoopback")
            }
            if let value = fields["concurrency"] {
                config.images.concurrency = try integer(value, "images.concurrency", minimum: 1, maximum: 16)
            }
            if let value = fields["timeoutSeconds"] {
                config.images.timeoutSeconds = try number(value, "images.timeoutSeconds", minimum: 1, maximum: 600)
            }
        }
        if let graph = top["graph"] {
            let fields = try object(graph, "graph", allowed: ["prefetchDepth"])
            if let value = fields["prefetchDepth"] {
                config.graph.prefetchDepth = try integer(value, "graph.prefetchDepth", minimum: 0, maximum: 10)
            }
        }
        if let outbox = top["outbox"] {
            let fields = try object(outbox, "outbox", allowed: ["flushIntervalSeconds", "maxAgeHours"])
            if let value = fields["flushIntervalSeconds"] {
                config.outbox.flushIntervalSeconds = try number(value, "outbox.flushIntervalSeconds", minimum: 1, maximum: Limits.intervalSeconds)
            }
            if let value = fields["maxAgeHours"] {
                config.outbox.maxAgeHours = try number(value, "outbox.maxAgeHours", minimum: 0, maximum: Limits.maxAgeHours)
            }
        }
        if let log = top["log"] {
            let fields = try object(log, "log", allowed: ["level", "format", "file"])
            if let value = fields["level"] {
                config.log.level = try choice(
                    value,
                    "log.level",
                    noun: "level",
                    choices: "trace, debug, info, notice, warning, error or critical",
                    Logger.Level.init(configName:)
                )
            }
            if let value = fields["format"] {
                config.log.format = try choice(
                    value,
                    "log.format",
                    noun: "format",
                    choices: "logfmt or json",
                    TwfeedConfig.Log.Format.init(rawValue:)
                )
            }
            if let value = fields["file"], value != .null {
                config.log.file = ConfigLoader.expand(try string(value, "log.file"), environment)
            }
        }
        if let http = top["http"] {
            let fields = try object(http, "http", allowed: ["listen", "allowRemote", "auth"])
            if let value = fields["allowRemote"] { config.http.allowRemote = try bool(value, "http.allowRemote") }
            if let value = fields["auth"] {
                config.http.auth = try choice(value, "http.auth", noun: "access", choices: "token or none", TwfeedConfig.HTTP.Auth.init(rawValue:))
            }
            if config.http.auth == .none && config.http.allowRemote {
                throw fail(
                    "http.auth",
                    "\"none\" with http.allowRemote would let the network read your timeline and post as you; "
                        + "use \"token\" (the default) or turn allowRemote off"
                )
            }
            if let value = fields["listen"], value != .null {
                let text = try string(value, "http.listen")
                do {
                    config.http.listen = try ListenAddress(parsing: text)
                } catch let error as ListenAddress.ParseError {
                    throw fail("http.listen", "\"\(text)\" \(error.reason)")
                }
            }
            if let listen = config.http.listen, !listen.isLoopback, !config.http.allowRemote {
                throw fail(
                    "http.listen",
                    "\"\(listen)\" is not a loopback address: the pages show your private timeline; "
                        + "set http.allowRemote to true to serve them to the network"
                )
            }
        }
        return config
    }
}
