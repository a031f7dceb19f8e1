import CCrypto

/// HMAC-SHA256 from OpenSSL's libcrypto (as `SHA256`): what the web reader signs its
/// login links, sessions, form tokens and Atom keys with, so none of them needs to be
/// stored to be checked.
package enum HMACSHA256 {
    /// The 32-byte MAC of `message` under `key`.
    package static func mac(key: [UInt8], _ message: String) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        var length = 0
        let bytes = Array(message.utf8)
        let result = key.withUnsafeBytes { key in
            bytes.withUnsafeBufferPointer { data in
                out.withUnsafeMutableBufferPointer { out in
                    EVP_Q_mac(
                        nil,
                        "HMAC",
                        nil,
                        "SHA256",
                        nil,
                        key.baseAddress,
                        key.count,
                        data.baseAddress,
                        data.count,
                        out.baseAddress,
                        out.count,
                        &length
                    )
                }
            }
        }
        // EVP_Q_mac fails only when memory or the default provider is missing.
        precondition(result != nil && length == 32, "libcrypto could not compute HMAC-SHA256")
        return out
    }

    /// The first `bytes` bytes of the MAC as lowercase hex.
    package static func hex(key: [UInt8], _ message: String, bytes: Int = 16) -> String {
        Hex.encode(mac(key: key, message).prefix(bytes))
    }

    /// Whether two strings are equal, in a time that depends on their lengths only: a
    /// guess at a secret learns nothing from how long the refusal took.
    package static func equalInConstantTime(_ a: String, _ b: String) -> Bool {
        let left = Array(a.utf8)
        let right = Array(b.utf8)
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for index in left.indices { difference |= left[index] ^ right[index] }
        return difference == 0
    }
}

/// Bytes as lowercase hex digits, and back.
package enum Hex {
    package static func encode(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Nil unless `text` is an even number of hex digits.
    package static func decode(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        func value(_ digit: UInt8) -> UInt8? {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = value(digits[index]), let low = value(digits[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }

    /// `count` random bytes from the system's generator, as hex.
    package static func random(bytes count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return encode((0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }
}
