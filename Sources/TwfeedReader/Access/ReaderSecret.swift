import Foundation
import TwfeedCore

/// The web reader's per-install secret (`reader-secret`, beside the database, mode 0600):
/// the key every login link, session, form token and Atom key is signed with, and the
/// bearer a script sends. Made on first use by whichever comes first, the reader or
/// `twfeed open`; never logged. Deleting it ends every session and changes every key.
package struct ReaderSecret: Sendable {
    /// 64 hex digits (32 random bytes).
    package let value: String
    var key: [UInt8] { Array(value.utf8) }

    package static let fileName = "reader-secret"

    /// `reader-secret` in the folder that holds the database.
    package static func path(config: TwfeedConfig) -> String {
        let folder = (config.storage.database as NSString).deletingLastPathComponent
        return (folder.isEmpty ? "." : folder) + "/" + fileName
    }

    package init(value: String) {
        self.value = value
    }

    /// Reads the secret, making it first when there is none. Two processes making it at
    /// once agree on one: each writes its own file and links it into place, and the
    /// second link fails and reads the first.
    package static func loadOrCreate(path: String) throws -> ReaderSecret {
        if let secret = try load(path: path) { return secret }
        let folder = (path as NSString).deletingLastPathComponent
        // The database's folder, when nothing made it yet: private, as the store makes it.
        try FileManager.default.createDirectory(
            atPath: folder.isEmpty ? "." : folder,
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700]
        )
        let temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0 ... .max))"
        let text = Hex.random(bytes: 32) + "\n"
        try Array(text.utf8).withUnsafeBytes { try AtomicFile.writeNewFile($0, to: temporary, mode: 0o600) }
        defer { unlink(temporary) }
        if link(temporary, path) != 0 && errno != EEXIST {
            throw TwfeedError(.permission, "\(path): cannot create the reader's secret: \(String(cString: strerror(errno)))")
        }
        guard let secret = try load(path: path) else {
            throw TwfeedError(.permission, "\(path): cannot read the reader's secret")
        }
        return secret
    }

    /// The secret, nil when the file does not exist. Refuses one that group or others can
    /// read (as the credentials file), and one that is not 64 hex digits.
    package static func load(path: String) throws -> ReaderSecret? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw TwfeedError(.permission, "\(path): cannot read the reader's secret: \(String(cString: strerror(errno)))")
        }
        try PrivateFile.requireOwnerOnly(info, path: path, what: "the reader's secret")
        let data = try WholeFile.read(path, what: "the reader's secret", code: .permission)
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.utf8.count == 64, Hex.decode(text) != nil else {
            throw TwfeedError(.configuration, "\(path): not a reader secret (64 hex digits); delete it and twfeed makes a new one")
        }
        return ReaderSecret(value: text)
    }
}
