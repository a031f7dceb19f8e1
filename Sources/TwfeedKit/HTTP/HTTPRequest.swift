import Foundation

package struct HTTPRequest: Sendable {
    package enum Method: String, Sendable { case get = "GET", post = "POST" }

    package var method: Method
    /// Absolute http(s) URL, query included.
    package var url: String
    /// Header names are sent as given; lookups elsewhere are lowercase.
    package var headers: [(name: String, value: String)]
    package var body: [UInt8]
    package var timeoutSeconds: Double
    /// The transfer is cut off once the body grows past this.
    package var maxResponseBytes: Int

    package init(
        method: Method = .get, url: String, headers: [(name: String, value: String)] = [],
        body: [UInt8] = [], timeoutSeconds: Double = 30, maxResponseBytes: Int = 16 << 20
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeoutSeconds = timeoutSeconds
        self.maxResponseBytes = maxResponseBytes
    }
}

package struct HTTPResponse: Sendable {
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

/// Why a request got no HTTP answer at all.
package struct HTTPError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Kind: String, Sendable {
        case timeout, connectionFailed, connectionReset, responseTooLarge, cancelled, invalidURL, other
    }

    package var kind: Kind
    package var detail: String

    package init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    package var description: String { "\(kind.rawValue): \(detail)" }
}

/// Sends one request and returns the whole answer. The daemon uses libcurl; tests put
/// a scripted transport in its place.
package protocol HTTPTransport: Sendable {
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}
