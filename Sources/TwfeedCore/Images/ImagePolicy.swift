import Foundation

/// Which image URLs the daemon may fetch, and which variant of a profile picture it wants.
///
/// Image URLs come from remote data, so this is the fetcher's first line of defence:
/// https only (plain http only from loopback, and only when the config allows it),
/// hosts from the allow-list only, no user info, no odd characters. A URL that passes is
/// rebuilt from its parsed parts before it reaches libcurl, so libcurl never sees a
/// spelling this parser read differently (`https://a.com\@b.com/`, `#@`, spaces).
/// Redirect targets go through the same check. What a URL's host resolves to is the
/// `AddressWall`'s to judge (`addressWall`), as the transport connects.
package struct ImagePolicy: Sendable, Equatable {
    /// `images.size`: the variant wanted, named by the host's file-name suffix.
    package enum Size: String, Sendable, CaseIterable {
        case normal, bigger
        case large = "400x400"
        case original

        /// The suffix the URL gets (`_normal`); none for the original.
        var suffix: String { self == .original ? "" : "_\(rawValue)" }
    }

    /// The size suffixes pbs.twimg.com uses; any of them is replaced by the wanted one.
    static let knownSuffixes = ["_normal", "_bigger", "_mini", "_400x400", "_200x200", "_reasonably_small", "_x96"]

    /// Host names a plain-http URL may use when `allowInsecureLoopback` is on.
    static let loopbackHosts: Set<String> = ["127.0.0.1", "::1", "localhost"]

    package var allowedHosts: Set<String>
    package var allowInsecureLoopback: Bool
    package var size: Size

    package init(allowedHosts: [String], allowInsecureLoopback: Bool = false, size: Size = .normal) {
        self.allowedHosts = Set(allowedHosts.map { $0.lowercased() })
        self.allowInsecureLoopback = allowInsecureLoopback
        self.size = size
    }

    package init(_ images: TwfeedConfig.Images) {
        self.init(
            allowedHosts: images.allowedHosts,
            allowInsecureLoopback: images.allowInsecureLoopback,
            size: Size(rawValue: images.size) ?? .normal
        )
    }

    /// What the refusals depend on, stored with each: a refused picture is tried again
    /// when the hosts or the loopback rule change.
    package var key: String {
        (allowInsecureLoopback ? "loopback;" : "") + allowedHosts.sorted().joined(separator: ",")
    }

    /// Why a URL may not be fetched. The raw values are the `reason` of `image.rejected`.
    package enum Violation: String, Sendable, Equatable, Error {
        case malformed = "bad_url"
        case insecure = "not_https"
        case hostNotAllowed = "host_not_allowed"
        /// The host resolved to an address the `AddressWall` keeps image fetches from
        /// (private, loopback, link-local, …). Found by the transport as it connects,
        /// not by `check`, which sees only the URL.
        case addressNotAllowed = "address_not_allowed"
    }

    /// The addresses a fetch under this policy may not connect to: loopback opens with
    /// `allowInsecureLoopback`, as plain http to loopback does.
    package var addressWall: AddressWall { AddressWall(allowsLoopback: allowInsecureLoopback) }

    /// A URL that passed the policy, rebuilt from its parts.
    package struct Checked: Sendable, Equatable {
        package var scheme: String
        package var host: String
        package var port: Int?
        /// Starts with `/`; the query, if any, included.
        package var pathAndQuery: String

        package var url: String {
            let hostPart = host.contains(":") ? "[\(host)]" : host
            return "\(scheme)://\(hostPart)\(port.map { ":\($0)" } ?? "")\(pathAndQuery)"
        }
    }

    /// Parses and checks `url`.
    package func check(_ url: String) -> Result<Checked, Violation> {
        guard let parsed = Self.parse(url) else { return .failure(.malformed) }
        guard allowedHosts.contains(parsed.host) else { return .failure(.hostNotAllowed) }
        switch parsed.scheme {
        case "https":
            break
        case "http" where allowInsecureLoopback && Self.loopbackHosts.contains(parsed.host):
            break
        default:
            return .failure(.insecure)
        }
        return .success(parsed)
    }

    /// The URL of the wanted size: a known size suffix before the extension is replaced
    /// (`abc_normal.jpg` → `abc_400x400.jpg`, or `abc.jpg` for the original). A URL without
    /// a known suffix is returned unchanged: no convention says what its variants are.
    package func variant(of url: String) -> String {
        let pathEnd = url.firstIndex { $0 == "?" || $0 == "#" } ?? url.endIndex
        let path = url[..<pathEnd]
        guard let slash = path.lastIndex(of: "/") else { return url }
        let name = path[path.index(after: slash)...]
        let dot = name.lastIndex(of: ".") ?? name.endIndex
        let stem = name[..<dot]
        guard let suffix = Self.knownSuffixes.first(where: { stem.hasSuffix($0) && stem.count > $0.count }) else {
            return url
        }
        let bare = stem.dropLast(suffix.count)
        return String(url[..<stem.startIndex]) + bare + size.suffix + String(url[dot...])
    }

    /// Strict parsing of `scheme://host[:port]/path[?query]`: lowercase scheme and host,
    /// no user info, no fragment (dropped), only printable ASCII without `\`, and a host of
    /// letters, digits, `-` and `.` (or an IPv6 literal in brackets).
    static func parse(_ url: String) -> Checked? {
        guard url.utf8.count <= 2048,
            url.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") }),
            let schemeEnd = url.range(of: "://")
        else { return nil }
        let scheme = url[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { return nil }
        var rest = url[schemeEnd.upperBound...]
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        var pathAndQuery = String(rest[authorityEnd...])
        if pathAndQuery.isEmpty || pathAndQuery.hasPrefix("?") { pathAndQuery = "/" + pathAndQuery }
        guard !authority.contains("@"), !authority.isEmpty else { return nil }

        var host: Substring
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return nil }
                portText = after.dropFirst()
            }
            guard !host.isEmpty, host.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return nil }
        } else {
            if let colon = authority.lastIndex(of: ":") {
                host = authority[..<colon]
                portText = authority[authority.index(after: colon)...]
            } else {
                host = authority
            }
            guard !host.isEmpty, host.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." }),
                !host.hasPrefix("."), !host.hasPrefix("-")
            else { return nil }
        }
        var port: Int?
        if let portText {
            guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy(\.isASCII),
                let number = Int(portText), (1...65535).contains(number)
            else { return nil }
            port = number
        }
        var lowered = host.lowercased()
        if lowered.hasSuffix(".") { lowered.removeLast() }  // "pbs.twimg.com." is the same host
        return Checked(scheme: scheme, host: lowered, port: port, pathAndQuery: pathAndQuery)
    }

    /// Resolves a redirect's `Location` against the URL that answered: absolute URLs and
    /// absolute paths; anything else (relative paths, other schemes) is refused.
    package static func resolve(location: String, against base: Checked) -> String? {
        let location = location.trimmingCharacters(in: .whitespaces)
        if location.hasPrefix("//") { return base.scheme + ":" + location }
        if location.hasPrefix("/") {
            var origin = base
            origin.pathAndQuery = location
            return origin.url
        }
        if location.lowercased().hasPrefix("http://") || location.lowercased().hasPrefix("https://") { return location }
        return nil
    }
}
