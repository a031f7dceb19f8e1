import CCrypto

/// SHA-256 from OpenSSL's libcrypto, which is on every machine that builds twfeed (libcurl
/// links it) and is tested far beyond what a hand-written digest could be. The name of a
/// cached image is the hash of its bytes, so the same picture used by several authors is
/// stored once and a file's name never comes from remote data.
package enum SHA256 {
    /// The 32-byte digest of `bytes`.
    package static func hash(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let succeeded = bytes.withUnsafeBytes { input in
            digest.withUnsafeMutableBufferPointer { output in
                EVP_Digest(input.baseAddress, input.count, output.baseAddress, &length, EVP_sha256(), nil)
            }
        }
        // EVP_Digest fails only when memory or the default provider is missing; there is
        // no sensible name for a cached file then.
        precondition(succeeded == 1 && length == 32, "libcrypto could not compute SHA-256")
        return Array(digest.prefix(Int(length)))
    }

    /// The digest as 64 lowercase hex digits.
    package static func hex(_ bytes: [UInt8]) -> String {
        Hex.encode(hash(bytes))
    }
}
