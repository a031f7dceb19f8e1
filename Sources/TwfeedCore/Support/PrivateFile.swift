import Glibc

/// Files that hold a secret (the credentials, the reader's secret): refused when group
/// or others may read them, as ssh does with private keys.
package enum PrivateFile {
    /// Throws `.permission` naming the file, its mode and the fix when `info` (the file's
    /// `stat`) lets group or others read it. `what` names the file in the message.
    package static func requireOwnerOnly(_ info: stat, path: String, what: String) throws {
        guard info.st_mode & 0o077 != 0 else { return }
        throw TwfeedError(
            .permission,
            "\(path): \(what) is readable by others (mode \(String(info.st_mode & 0o777, radix: 8))); run chmod 600 \(path)"
        )
    }
}
