/// v2's `pagination_token`: opaque to clients (they must only hand it back, with the query
/// that produced it). It carries where the next page starts (an exclusive id bound, or a
/// position in reposts_of_me's list) and a fingerprint of the query it belongs to, with a
/// check character so that a made-up token is refused rather than silently misread.
///
/// Why the fingerprint: a token is a position in one query's results. Handed back with
/// other bounds, a server whose token is an offset would skip posts (and nothing would
/// tell the client), so the emulator refuses it (a 400, as any invalid parameter) instead
/// of serving what this emulator's id bound happens to make right.
enum PaginationToken {
    private static let mask: UInt64 = 0x5DEE_CE66_D1CE_F00D
    private static let digits = Array("0123456789abcdefghijklmnopqrstuvwxyz")
    /// Base-36 digits of the query's fingerprint at the token's head (36^7 > 2^32).
    private static let scopeWidth = 7

    /// What a token decodes to: where the next page starts, and the query it belongs to.
    struct Contents: Equatable {
        let bound: UInt64
        let scope: UInt32
    }

    static func encode(_ bound: UInt64, scope: UInt32) -> String {
        let head = String(scope, radix: 36)
        let body = String(repeating: "0", count: scopeWidth - head.count) + head + String(bound ^ mask, radix: 36)
        return body + String(digits[check(body)])
    }

    static func decode(_ token: String) -> Contents? {
        guard token.count >= scopeWidth + 2, let last = token.last else { return nil }
        let body = String(token.dropLast())
        guard String(digits[check(body)]) == String(last),
            let scope = UInt32(body.prefix(scopeWidth), radix: 36),
            let value = UInt64(body.dropFirst(scopeWidth), radix: 36)
        else { return nil }
        return Contents(bound: value ^ mask, scope: scope)
    }

    /// The fingerprint of a query's selection (FNV-1a over its parts): the endpoint, and
    /// the parameters that choose which posts it lists. `max_results` and the fields are
    /// not part of it: they shape a page, not the list it is cut from.
    static func scope(_ parts: [String]) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for byte in parts.joined(separator: "\u{1F}").utf8 {
            hash = (hash ^ UInt32(byte)) &* 16_777_619
        }
        return hash
    }

    private static func check(_ body: String) -> Int {
        body.unicodeScalars.reduce(7) { ($0 * 31 + Int($1.value)) % 36 }
    }
}
