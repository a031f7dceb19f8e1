import Glibc

/// Where the reader listens: `HOST:PORT` (`127.0.0.1:8765`, `[::1]:8765`,
/// `localhost:8765`). Only literal addresses and `localhost` are accepted, so whether
/// it is loopback is decided here, from the text, not by a resolver.
package struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    package var host: String
    /// 0 asks the system for a free port (tests, `demo --serve`).
    package var port: Int

    package struct ParseError: Error, Equatable {
        package var reason: String
    }

    package init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    package init(parsing text: String) throws {
        let hostPart: Substring
        let portPart: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                throw ParseError(reason: "is not [IPv6]:PORT")
            }
            hostPart = text[text.index(after: text.startIndex)..<close]
            portPart = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":") else { throw ParseError(reason: "has no port (use HOST:PORT, e.g. 127.0.0.1:8765)") }
            hostPart = text[..<colon]
            portPart = text[text.index(after: colon)...]
            guard !hostPart.contains(":") else { throw ParseError(reason: "is ambiguous: write an IPv6 address in brackets, [::1]:8765") }
        }
        guard let port = Int(portPart), (0...65_535).contains(port), portPart.allSatisfy(\.isASCII) else {
            throw ParseError(reason: "has no valid port (0-65535)")
        }
        let host = String(hostPart)
        guard host == "localhost" || Self.isIPv4(host) || Self.isIPv6(host) else {
            throw ParseError(reason: "must name an IP address or localhost, not a host name")
        }
        self.host = host
        self.port = port
    }

    /// 127.0.0.0/8, ::1 and localhost.
    package var isLoopback: Bool {
        host == "localhost" || host == "::1" || (Self.isIPv4(host) && host.hasPrefix("127."))
            || host.lowercased() == "0:0:0:0:0:0:0:1"
    }

    package var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    package static func isIPv4(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { part in
                !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCIIDigitCharacter) && Int(part)! <= 255
            }
    }

    static func isIPv6(_ text: String) -> Bool {
        var address = in6_addr()
        return !text.isEmpty && text.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." } && inet_pton(AF_INET6, text, &address) == 1
    }
}

extension Character {
    fileprivate var isASCIIDigitCharacter: Bool { isASCII && isNumber }
}
