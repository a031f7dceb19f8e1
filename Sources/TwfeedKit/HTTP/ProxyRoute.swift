/// The proxy a request goes through, read from the environment as libcurl reads it
/// (`http_proxy`, lower case only; `https_proxy` or `HTTPS_PROXY`; then `all_proxy` or
/// `ALL_PROXY`; `no_proxy` or `NO_PROXY` exempting hosts). `CurlTransport` hands libcurl
/// this answer (`CURLOPT_PROXY`, empty for none) instead of letting it read the
/// environment again, so the address wall and the connection agree on where twfeed
/// connects.
///
/// Through a proxy, twfeed connects only to the proxy, which the admin set and which
/// resolves and reaches the image host itself; the address wall would judge the
/// proxy's address (most often a private or a loopback one) and refuse every picture.
/// So the wall keeps to direct connections.
package enum ProxyRoute {
    /// The proxy for `url`, nil to connect directly.
    package static func proxy(for url: String, environment: [String: String]) -> String? {
        guard let scheme = url.split(separator: ":", maxSplits: 1).first?.lowercased(),
            let host = host(of: url)
        else { return nil }
        let names = (scheme == "https" ? ["https_proxy", "HTTPS_PROXY"] : ["http_proxy"]) + ["all_proxy", "ALL_PROXY"]
        guard let proxy = names.lazy.compactMap({ environment[$0] }).first(where: { !$0.isEmpty }) else { return nil }
        return exempt(host, noProxy: environment["no_proxy"] ?? environment["NO_PROXY"] ?? "") ? nil : proxy
    }

    /// The URL's host, lower case, without brackets or port.
    static func host(of url: String) -> String? {
        guard let start = url.range(of: "://")?.upperBound else { return nil }
        var rest = url[start...]
        if let end = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) { rest = rest[..<end] }
        if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
        if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
            return String(rest[rest.index(after: rest.startIndex)..<close]).lowercased()
        }
        if let colon = rest.firstIndex(of: ":") { rest = rest[..<colon] }
        return rest.isEmpty ? nil : rest.lowercased()
    }

    /// libcurl's `no_proxy`: `*` exempts every host; an entry exempts that host and, as a
    /// domain, the hosts below it (a leading dot is the same domain). An address host is
    /// exempt from any entry with a mask (`10.0.0.0/8`): a direct connection, which the
    /// wall judges.
    static func exempt(_ host: String, noProxy: String) -> Bool {
        let isAddress = host.contains(":") || host.allSatisfy { $0.isNumber || $0 == "." }
        for raw in noProxy.split(whereSeparator: { $0 == "," || $0 == " " }) {
            var entry = raw.lowercased()
            if entry == "*" { return true }
            if isAddress, entry.contains("/") { return true }
            if entry.hasPrefix(".") { entry.removeFirst() }
            if entry.hasSuffix("."), !isAddress { entry.removeLast() }
            if entry.isEmpty { continue }
            if host == entry || (!isAddress && host.hasSuffix("." + entry)) { return true }
        }
        return false
    }
}
