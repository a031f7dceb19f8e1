import Foundation
import TwfeedBase

#if canImport(Glibc)
import Glibc
#endif

/// The pieces of an OAuth 1.0a HMAC-SHA1 signature (RFC 5849 section 3.4), built from
/// scratch on purpose: the emulator checks the client's signatures from the server's side,
/// so it must not share the client's assumptions. Only the HMAC itself comes from liboauth.
///
/// Public so that tests (and anyone scripting against the emulator) can sign requests.
public enum OAuthSignature {
    /// Base64 HMAC-SHA1 of `base` under `key`, computed by liboauth (through TwfeedBase's
    /// `LibOAuth`, whose one lock also serialises the client's calls in the same process).
    public static func hmacSHA1(base: String, key: String) -> String {
        LibOAuth.hmacSHA1(base: base, key: key)
    }

    /// The signing key: both secrets percent-encoded and joined by `&` (the token secret
    /// is empty when signing with the consumer alone, as for `request_token`).
    public static func signingKey(consumerSecret: String, tokenSecret: String) -> String {
        percentEncode(consumerSecret) + "&" + percentEncode(tokenSecret)
    }

    /// RFC 3986 percent-encoding over UTF-8: all but `A-Z a-z 0-9 - . _ ~`, uppercase hex,
    /// a space as `%20` (never `+`).
    public static func percentEncode(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        let hex = Array("0123456789ABCDEF")
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out.append("%")
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            }
        }
        return out
    }

    /// Decodes `%XX` escapes (and `+` as a space when `plusAsSpace`, as form encoding
    /// does). Nil for a broken escape or bytes that are not UTF-8.
    public static func percentDecode(_ text: String, plusAsSpace: Bool = false) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = Array(text.utf8).makeIterator()
        func hexValue(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    return nil
                }
                bytes.append(high << 4 | low)
            } else if byte == UInt8(ascii: "+") && plusAsSpace {
                bytes.append(UInt8(ascii: " "))
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Name/value pairs of a query string or an `application/x-www-form-urlencoded` body,
    /// decoded (`+` is a space). A name without `=` has the empty value, as in the RFC's
    /// `c2` example. Nil when an escape is broken.
    public static func formDecode(_ text: String) -> [(name: String, value: String)]? {
        var pairs: [(name: String, value: String)] = []
        for piece in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = percentDecode(String(parts[0]), plusAsSpace: true),
                let value = percentDecode(parts.count > 1 ? String(parts[1]) : "", plusAsSpace: true)
            else { return nil }
            pairs.append((name, value))
        }
        return pairs
    }

    /// The base string URI (RFC 5849 3.4.1.2): scheme and host in lower case, the port
    /// only when it is not the scheme's default, the path as sent, no query or fragment.
    /// Nil when `url` has no `scheme://host`.
    public static func normalizedBaseURL(_ url: String) -> String? {
        guard let schemeEnd = url.range(of: "://") else { return nil }
        let scheme = url[..<schemeEnd.lowerBound].lowercased()
        var rest = url[schemeEnd.upperBound...]
        if let cut = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<cut] }
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        var authority = rest[..<slash].lowercased()
        let path = rest[slash...].isEmpty ? "/" : String(rest[slash...])
        guard !authority.isEmpty else { return nil }
        if let at = authority.lastIndex(of: "@") { authority = String(authority[authority.index(after: at)...]) }
        let defaultPort = scheme == "https" ? ":443" : scheme == "http" ? ":80" : nil
        if let defaultPort, authority.hasSuffix(defaultPort) { authority.removeLast(defaultPort.count) }
        return "\(scheme)://\(authority)\(path)"
    }

    /// The signature base string: `METHOD&enc(base URL)&enc(parameters)`, where the
    /// parameters (query + form body + `oauth_*`, without `oauth_signature` and `realm`)
    /// are each encoded, sorted by name then value, and joined as `name=value&...`.
    public static func baseString(method: String, baseURL: String, parameters: [(name: String, value: String)]) -> String {
        let encoded: [(name: String, value: String)] = parameters.map {
            (percentEncode($0.name), percentEncode($0.value))
        }
        let sorted = encoded.sorted { left, right in
            left.name != right.name ? left.name < right.name : left.value < right.value
        }
        let normalized = sorted.map { $0.name + "=" + $0.value }.joined(separator: "&")
        return method.uppercased() + "&" + percentEncode(baseURL) + "&" + percentEncode(normalized)
    }
}
