/// v2's `pagination_token`: opaque to clients (they must only hand it back). It carries
/// the exclusive upper bound of the next page, with a check character so that a made-up
/// token is refused rather than silently misread.
enum PaginationToken {
    private static let mask: UInt64 = 0x5DEE_CE66_D1CE_F00D
    private static let digits = Array("0123456789abcdefghijklmnopqrstuvwxyz")

    static func encode(_ bound: UInt64) -> String {
        let body = String(bound ^ mask, radix: 36)
        return body + String(digits[check(body)])
    }

    static func decode(_ token: String) -> UInt64? {
        guard token.count >= 2, let last = token.last else { return nil }
        let body = String(token.dropLast())
        guard String(digits[check(body)]) == String(last), let value = UInt64(body, radix: 36) else { return nil }
        return value ^ mask
    }

    private static func check(_ body: String) -> Int {
        body.unicodeScalars.reduce(7) { ($0 * 31 + Int($1.value)) % 36 }
    }
}
