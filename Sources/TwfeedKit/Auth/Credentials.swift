import Foundation
import TwfeedCore

/// The OAuth 1.0a key pairs. `description` never shows a secret, so a credentials
/// value can be logged or interpolated by mistake without leaking anything.
package struct Credentials: Sendable, Equatable, Codable, CustomStringConvertible {
    package var consumerKey: String
    package var consumerSecret: String
    package var accessToken: String?
    package var accessTokenSecret: String?

    package init(consumerKey: String, consumerSecret: String, accessToken: String? = nil, accessTokenSecret: String? = nil) {
        self.consumerKey = consumerKey
        self.consumerSecret = consumerSecret
        self.accessToken = accessToken
        self.accessTokenSecret = accessTokenSecret
    }

    package var hasAccessToken: Bool { !(accessToken ?? "").isEmpty && !(accessTokenSecret ?? "").isEmpty }

    /// Every secret value, for the log handler's last-line redaction.
    package var secrets: [String] { [consumerSecret, accessTokenSecret].compactMap { $0 }.filter { !$0.isEmpty } }

    package var description: String { "Credentials(consumerKey: \(consumerKey), accessToken: \(accessToken != nil ? "set" : "none"))" }
}

extension Credentials {
    /// Reads a credentials file, refusing one that group or others can read (as ssh
    /// does with private keys).
    package static func load(from path: String) throws -> Credentials {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw TwfeedError(.configuration, "\(path): cannot read credentials file: \(String(cString: strerror(errno)))")
        }
        try PrivateFile.requireOwnerOnly(info, path: path, what: "credentials file")
        let data = try WholeFile.read(path, what: "credentials file")
        let object: [String: JSONValue]
        do {
            guard case .object(let parsed) = try JSONValue.parse(data) else {
                throw TwfeedError(.configuration, "\(path): credentials must be a JSON object")
            }
            object = parsed
        } catch let error as JSONValue.ParseError {
            throw TwfeedError(.configuration, "\(path): invalid JSON at line \(error.line), column \(error.column): \(error.reason)")
        }
        let known = ["consumerKey", "consumerSecret", "accessToken", "accessTokenSecret"]
        for key in object.keys.sorted() where !known.contains(key) {
            throw TwfeedError(.configuration, "\(path): unknown key \"\(key)\"")
        }
        func string(_ key: String, required: Bool) throws -> String? {
            switch object[key] {
            case .string(let value)?:
                if value.isEmpty && required { throw TwfeedError(.configuration, "\(path): \(key) is empty") }
                return value
            case nil, .null?:
                if required { throw TwfeedError(.configuration, "\(path): missing \(key)") }
                return nil
            default:
                throw TwfeedError(.configuration, "\(path): \(key) must be a string")
            }
        }
        return Credentials(
            consumerKey: try string("consumerKey", required: true)!,
            consumerSecret: try string("consumerSecret", required: true)!,
            accessToken: try string("accessToken", required: false),
            accessTokenSecret: try string("accessTokenSecret", required: false)
        )
    }

    /// Writes the file with mode 0600 through a temporary file and a rename, so a crash
    /// never leaves half a file and the secrets are never readable by others, not even
    /// for a moment.
    package func write(to path: String) throws {
        var object: [String: String] = ["consumerKey": consumerKey, "consumerSecret": consumerSecret]
        if let accessToken { object["accessToken"] = accessToken }
        if let accessTokenSecret { object["accessTokenSecret"] = accessTokenSecret }
        let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
        try AtomicFile.write(data, to: path, mode: 0o600)
    }
}
