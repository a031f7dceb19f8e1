import Foundation
import TwfeedCore

/// One request to the API or an image host, as a transport sends it. Named for what
/// twfeed sends, not `APIRequest`, so it never shadows HTTPTypes' type of that name.
package struct APIRequest: Sendable {
    package enum Method: String, Sendable {
        case get = "GET"
        case post = "POST"
        /// A write like a post: sent on a connection of its own (`CurlTransport`).
        case delete = "DELETE"
    }

    package var method: Method
    /// Absolute http(s) URL, query included.
    package var url: String
    /// Header names are sent as given; lookups elsewhere are lowercase.
    package var headers: [(name: String, value: String)]
    package var body: [UInt8]
    package var timeoutSeconds: Double
    /// The transfer is cut off once the body grows past this.
    package var maxResponseBytes: Int
    /// Send it on a new connection, not a kept-alive one (a read sent again after its
    /// reused connection died; posts always go on a connection of their own).
    package var freshConnection = false
    /// The addresses this request may not connect to, checked on each address libcurl
    /// is about to connect to (after DNS): set by the image fetchers, whose URLs come
    /// from remote data; nil for the API, whose base URL is the admin's. A walled
    /// address fails the request with `TransportError.Kind.addressNotAllowed`.
    package var addressWall: AddressWall?

    package init(
        method: Method = .get,
        url: String,
        headers: [(name: String, value: String)] = [],
        body: [UInt8] = [],
        timeoutSeconds: Double = 30,
        maxResponseBytes: Int = 16 << 20
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeoutSeconds = timeoutSeconds
        self.maxResponseBytes = maxResponseBytes
    }
}
