/// The whole answer to an `APIRequest`: status, headers and body.
package struct APIResponse: Sendable {
    package var status: Int
    /// Lowercased names; the last value wins for repeated headers.
    package var headers: [String: String]
    package var body: [UInt8]

    package init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    package var bodyText: String { String(decoding: body, as: UTF8.self) }
}
