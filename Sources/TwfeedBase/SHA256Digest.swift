import CCrypto

/// SHA-256 from OpenSSL's libcrypto, which is on every machine that builds twfeed (libcurl
/// links it). twfeed names a cached image by the hash of its bytes; the emulator reports
/// each uploaded photo by it, so a test holds the two against each other: one function,
/// so they cannot disagree.
public enum SHA256Digest {
    /// The 32-byte digest of `bytes`.
    public static func hash(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let succeeded = bytes.withUnsafeBytes { input in
            digest.withUnsafeMutableBufferPointer { output in
                EVP_Digest(input.baseAddress, input.count, output.baseAddress, &length, EVP_sha256(), nil)
            }
        }
        // EVP_Digest fails only when memory or the default provider is missing; there is
        // no sensible digest to give then.
        precondition(succeeded == 1 && length == 32, "libcrypto could not compute SHA-256")
        return Array(digest.prefix(Int(length)))
    }

    /// The digest as 64 lowercase hex digits.
    public static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in hash(bytes) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
