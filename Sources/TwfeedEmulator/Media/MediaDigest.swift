import CCrypto

/// The SHA-256 of an uploaded photo, as the control read reports it: what a test holds
/// against the file it queued, to prove the bytes went through unchanged. libcrypto's,
/// as twfeed's own image store uses (both read the same standard, not each other).
enum MediaDigest {
    /// 64 lowercase hex digits.
    static func sha256Hex(_ bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let succeeded = bytes.withUnsafeBytes { input in
            digest.withUnsafeMutableBufferPointer { output in
                EVP_Digest(input.baseAddress, input.count, output.baseAddress, &length, EVP_sha256(), nil)
            }
        }
        // EVP_Digest fails only without memory or the default provider: nothing to report then.
        precondition(succeeded == 1 && length == 32, "libcrypto could not compute SHA-256")
        let hex = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in digest.prefix(32) {
            text.append(hex[Int(byte >> 4)])
            text.append(hex[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
