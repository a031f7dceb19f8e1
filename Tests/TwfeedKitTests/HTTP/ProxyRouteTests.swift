import Testing
@testable import TwfeedKit

/// Which requests libcurl sends through a proxy from the environment: the address wall
/// keeps to the others (`CurlTransport`).
struct ProxyRouteTests {
    /// Whether `url` goes through a proxy.
    static func proxied(url: String, environment: [String: String]) -> Bool {
        ProxyRoute.proxy(for: url, environment: environment) != nil
    }

    @Test func eachSchemeReadsItsOwnVariablesThenAllProxy() {
        #expect(Self.proxied(url: "https://pbs.twimg.com/a.jpg", environment: ["https_proxy": "http://10.0.0.1:3128"]))
        #expect(ProxyRoute.proxy(for: "https://pbs.twimg.com/a.jpg", environment: ["HTTPS_PROXY": "http://10.0.0.2:3128"]) == "http://10.0.0.2:3128")
        #expect(Self.proxied(url: "http://127.0.0.1:9/a.png", environment: ["http_proxy": "http://10.0.0.1:3128"]))
        // libcurl never reads HTTP_PROXY in capitals (a CGI's request header could set it).
        #expect(!Self.proxied(url: "http://127.0.0.1:9/a.png", environment: ["HTTP_PROXY": "http://10.0.0.1:3128"]))
        #expect(!Self.proxied(url: "https://pbs.twimg.com/a.jpg", environment: ["http_proxy": "http://10.0.0.1:3128"]))
        #expect(Self.proxied(url: "https://pbs.twimg.com/a.jpg", environment: ["ALL_PROXY": "socks5://10.0.0.1"]))
        #expect(!Self.proxied(url: "https://pbs.twimg.com/a.jpg", environment: ["https_proxy": ""]))
        #expect(!Self.proxied(url: "https://pbs.twimg.com/a.jpg", environment: [:]))
    }

    @Test func noProxyExemptsAHostAndTheDomainsBelowIt() {
        let proxy = ["https_proxy": "http://10.0.0.1:3128"]
        func proxied(_ url: String, _ noProxy: String) -> Bool {
            Self.proxied(url: url, environment: proxy.merging(["no_proxy": noProxy]) { $1 })
        }
        #expect(!proxied("https://pbs.twimg.com/a.jpg", "*"))
        #expect(!proxied("https://pbs.twimg.com/a.jpg", "example.org, twimg.com"))
        #expect(!proxied("https://pbs.twimg.com/a.jpg", ".twimg.com"))
        #expect(!proxied("https://PBS.twimg.com:443/a.jpg", "pbs.twimg.com"))
        #expect(proxied("https://pbs.twimg.com/a.jpg", "mg.com"), "a suffix that is not a domain")
        #expect(proxied("https://pbs.twimg.com/a.jpg", "example.org"))
        #expect(!proxied("https://[::1]:8443/a.png", "::1"))
        // A mask on an address host: read as exempt, so the wall stays on the direct connection.
        #expect(!proxied("https://10.1.2.3/a.png", "10.0.0.0/8"))
        #expect(proxied("https://pbs.twimg.com/a.jpg", "10.0.0.0/8"))
    }

    @Test func theHostIsReadWithoutUserPortOrBrackets() {
        #expect(ProxyRoute.host(of: "https://u:p@Pbs.Twimg.com:8443/a?b#c") == "pbs.twimg.com")
        #expect(ProxyRoute.host(of: "https://[fe80::1]:8443/") == "fe80::1")
        #expect(ProxyRoute.host(of: "not a url") == nil)
    }
}
