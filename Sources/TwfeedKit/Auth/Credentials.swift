import Foundation
import TwfeedCore

/// The OAuth 1.0a key pairs. `description` never shows a secret, so a credentials
/// value can be logged or interpolated by mistake without leaking anything.
package struct Credentials: Sendable, Equatable, Codable, CustomStringConvertible {
    package var consumerKey: String
    package var consumerSecret: String
    package var accessToken: String?
    package var accessTokenSecret: String?
    /// The signed-in account's user id and screen name, as X's answer to the PIN flow
    /// gave them (`user_id`, `screen_name`): `login` writes them with the token pair and
    /// `logout` removes them with it. Not secrets; what `import` checks an archive against
    /// without asking the API. A file written before twfeed kept them has neither.
    package var userID: UserID?
    package var username: String?

    package init(
        consumerKey: String,
        consumerSecret: String,
        accessToken: String? = nil,
        accessTokenSecret: String? = nil,
        userID: UserID? = nil,
        username: String? = nil
    ) {
        self.consumerKey = consumerKey
        self.consumerSecret = consumerSecret
        self.accessToken = accessToken
        self.accessTokenSecret = accessTokenSecret
        self.userID = userID
        self.username = username
    }

    /// The file's keys (`userId`, not Swift's `userID`).
    private enum CodingKeys: String, CodingKey {
        case consumerKey, consumerSecret, accessToken, accessTokenSecret
        case userID = "userId"
        case username
    }

    package var hasAccessToken: Bool { !(accessToken ?? "").isEmpty && !(accessTokenSecret ?? "").isEmpty }

    /// Who is signed in, without asking the API: nil when no access token pair is held.
    /// The recorded `userId` when there is one; else the id X puts at the start of every
    /// access token it issues (`6253282-eWud…` for user 6253282, its own documented
    /// example), so a file written by an older twfeed, or by hand, still tells; else nil.
    package var signedInUserID: UserID? {
        guard hasAccessToken else { return nil }
        if let userID { return userID }
        return Self.userID(ofToken: accessToken ?? "")
    }

    /// The user id an access token of the documented shape `USERID-REST` starts with.
    static func userID(ofToken token: String) -> UserID? {
        guard let dash = token.firstIndex(of: "-"), token.index(after: dash) < token.endIndex else { return nil }
        let digits = token[..<dash]
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return UserID(String(digits))
    }

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
        let known = ["consumerKey", "consumerSecret", "accessToken", "accessTokenSecret", "userId", "username"]
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
        let consumerKey = try string("consumerKey", required: true)!
        let consumerSecret = try string("consumerSecret", required: true)!
        let accessToken = try string("accessToken", required: false)
        let accessTokenSecret = try string("accessTokenSecret", required: false)
        let userID = try string("userId", required: false).map { text -> UserID in
            guard let id = UserID(text) else { throw TwfeedError(.configuration, "\(path): userId must be a user id (digits), not \"\(text)\"") }
            return id
        }
        return Credentials(
            consumerKey: consumerKey,
            consumerSecret: consumerSecret,
            accessToken: accessToken,
            accessTokenSecret: accessTokenSecret,
            userID: userID,
            username: try string("username", required: false)
        )
    }

    /// Writes the file with mode 0600 through a temporary file and a rename, so a crash
    /// never leaves half a file and the secrets are never readable by others, not even
    /// for a moment.
    package func write(to path: String) throws {
        var object: [String: String] = ["consumerKey": consumerKey, "consumerSecret": consumerSecret]
        if let accessToken { object["accessToken"] = accessToken }
        if let accessTokenSecret { object["accessTokenSecret"] = accessTokenSecret }
        if let userID { object["userId"] = userID.description }
        if let username { object["username"] = username }
        let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
        try AtomicFile.write(data, to: path, mode: 0o600)
    }
}
