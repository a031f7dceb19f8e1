import COAuth
import Foundation
import Synchronization

/// liboauth's HMAC-SHA1 behind one lock for the whole process. liboauth initialises its
/// crypto backend lazily on first use without a lock, and twfeed and its emulator share a
/// process in the tests, the demo and the benchmark: a lock in each would not keep the
/// two apart. Only the HMAC is shared; each side builds its own signature base string.
public enum LibOAuth {
    private static let lock = Mutex(())

    /// Base64 HMAC-SHA1 of `base` under `key`, computed by `oauth_sign_hmac_sha1`.
    public static func hmacSHA1(base: String, key: String) -> String {
        lock.withLock { _ in
            guard let result = oauth_sign_hmac_sha1(base, key) else { return "" }
            defer { free(result) }
            return String(cString: result)
        }
    }
}
