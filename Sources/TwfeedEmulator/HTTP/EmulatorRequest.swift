import Foundation

/// One HTTP/1.1 request as received. The raw target is kept because OAuth signs the path
/// exactly as the client sent it. (Named apart from TwfeedKit's client-side `HTTPRequest`, so
/// code that holds both reads them unqualified.)
struct EmulatorRequest: Sendable {
    var method: String
    /// The request target as sent, e.g. `/2/users/me?user.fields=name`.
    var target: String
    var version: String
    /// Header fields in order, names in lower case.
    var headers: [(name: String, value: String)]
    var body: [UInt8]
    /// Which request this is on its connection, from 1 (set by `HTTPServer`).
    var connectionRequestNumber = 1

    /// The first value of a header (name in any case).
    func header(_ name: String) -> String? {
        let lowered = name.lowercased()
        return headers.first { $0.name == lowered }?.value
    }

    /// The target up to `?`.
    var path: String {
        target.firstIndex(of: "?").map { String(target[..<$0]) } ?? target
    }

    /// The target after `?`, undecoded ("" when there is none).
    var rawQuery: String {
        target.firstIndex(of: "?").map { String(target[target.index(after: $0)...]) } ?? ""
    }

    /// Decoded query parameters in order (broken escapes drop the whole query).
    var queryItems: [(name: String, value: String)] {
        OAuthSignature.formDecode(rawQuery) ?? []
    }

    /// The first value of a query parameter.
    func query(_ name: String) -> String? {
        queryItems.first { $0.name == name }?.value
    }

    /// Whether the body is form-encoded, which makes its parameters part of the OAuth signature.
    var hasFormBody: Bool {
        header("content-type")?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true
    }

    /// Decoded form body parameters (empty unless `hasFormBody`).
    var formItems: [(name: String, value: String)] {
        hasFormBody ? OAuthSignature.formDecode(String(decoding: body, as: UTF8.self)) ?? [] : []
    }

    /// HTTP/1.1 keeps the connection open unless told otherwise; HTTP/1.0 closes unless asked to keep it.
    var wantsClose: Bool {
        let connection = header("connection")?.lowercased() ?? ""
        if version == "HTTP/1.0" { return !connection.contains("keep-alive") }
        return connection.contains("close")
    }
}
