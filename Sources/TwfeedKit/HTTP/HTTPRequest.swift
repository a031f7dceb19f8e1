import Foundation

public struct HTTPRequest: Sendable {
    public enum Method: String, Sendable { case get = "GET", post = "POST" }

    public var method: Method
    /// Absolute http(s) URL, query included.
    public var url: String
    /// Header names are sent as given; lookups elsewhere are lowercase.
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    public var timeoutSeconds: Double
    /// The transfer is cut off once the body grows past this.
    public var maxResponseBytes: Int

    public init(
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

public struct HTTPResponse: Sendable {
    public var status: Int
    /// Lowercased names; the last value wins for repeated headers.
    public var headers: [String: String]
    public var body: [UInt8]

    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public var bodyText: String { String(decoding: body, as: UTF8.self) }
}

/// Why a request got no HTTP answer at all.
public struct HTTPError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        case timeout, connectionFailed, connectionReset, responseTooLarge, cancelled, invalidURL, other
    }

    public var kind: Kind
    public var detail: String

    public init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    public var description: String { "\(kind.rawValue): \(detail)" }
}

/// Sends one request and returns the whole answer. The daemon uses libcurl; tests put
/// a scripted transport in its place.
public protocol HTTPTransport: Sendable {
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}
