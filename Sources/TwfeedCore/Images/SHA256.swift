import TwfeedBase

/// SHA-256 from OpenSSL's libcrypto, which is on every machine that builds twfeed (libcurl
/// links it) and is tested far beyond what a hand-written digest could be. The name of a
/// cached image is the hash of its bytes, so the same picture used by several authors is
/// stored once and a file's name never comes from remote data.
package enum SHA256 {
    /// The 32-byte digest of `bytes` (TwfeedBase's, which the emulator reports uploads by).
    package static func hash(_ bytes: [UInt8]) -> [UInt8] {
        SHA256Digest.hash(bytes)
    }

    /// The digest as 64 lowercase hex digits.
    package static func hex(_ bytes: [UInt8]) -> String {
        SHA256Digest.hex(bytes)
    }
}
