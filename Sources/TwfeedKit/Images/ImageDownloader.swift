import Foundation
import TwfeedCore

/// One picture over HTTP, as the image fetchers (avatars, photos) want it: every URL
/// and redirect target (at most 3 hops, followed here, not by curl) passes the
/// `ImagePolicy`, and every address it connects to the policy's `AddressWall` (checked
/// by the transport after DNS); the transfer is cut off past 5 MB; the body must be the
/// image its Content-Type claims (`ImageValidator`).
package struct ImageDownloader: Sendable {
    /// A larger answer is cut off mid-transfer, not read and dropped.
    package static let maxImageBytes = 5 << 20
    package static let maxRedirects = 3

    let policy: ImagePolicy
    let transport: any APITransport
    let timeoutSeconds: Double

    enum Outcome: Sendable {
        case fetched(body: [UInt8], format: ImageFormat, etag: String?, lastModified: String?)
        case notModified(etag: String?, lastModified: String?)
        /// Refused for what the URL or answer is: remembered, not retried until the URL changes.
        case rejected(String, String)
        /// Could not get an answer worth judging: retried with backoff.
        case failed(String, String)
    }

    /// Fetches `start`, following at most `maxRedirects` redirects, each target checked
    /// against the policy before it is requested. Returns the outcome and the requests sent.
    func download(_ start: ImagePolicy.Checked, validators: (etag: String?, lastModified: String?)?) async throws -> (Outcome, Int) {
        var current = start
        var requests = 0
        while true {
            var headers: [(name: String, value: String)] = [("Accept", "image/jpeg, image/png, image/gif, image/webp")]
            if let etag = validators?.etag { headers.append(("If-None-Match", etag)) }
            if let lastModified = validators?.lastModified { headers.append(("If-Modified-Since", lastModified)) }
            var request = APIRequest(
                url: current.url,
                headers: headers,
                timeoutSeconds: timeoutSeconds,
                maxResponseBytes: Self.maxImageBytes
            )
            request.addressWall = policy.addressWall
            requests += 1
            let response: APIResponse
            do {
                response = try await transport.send(request)
            } catch let error as TransportError {
                switch error.kind {
                case .cancelled: throw CancellationError()
                case .responseTooLarge: return (.rejected("too_large", "over \(Self.maxImageBytes) bytes: transfer cut off"), requests)
                case .invalidURL: return (.rejected("bad_url", error.detail), requests)
                // DNS gave a walled address: refused like a disallowed host, not retried.
                case .addressNotAllowed: return (.rejected(ImagePolicy.Violation.addressNotAllowed.rawValue, error.detail), requests)
                default: return (.failed(error.kind.rawValue, error.detail), requests)
                }
            }
            try Task.checkCancellation()
            switch response.status {
            case 200:
                switch ImageValidator.validate(contentType: response.headers["content-type"], body: response.body) {
                case .success(let format):
                    return (
                        .fetched(
                            body: response.body,
                            format: format,
                            etag: response.headers["etag"],
                            lastModified: response.headers["last-modified"]
                        ), requests
                    )
                case .failure(let rejection):
                    return (
                        .rejected(rejection.rawValue, "Content-Type \(response.headers["content-type"] ?? "none"), \(response.body.count) bytes"),
                        requests
                    )
                }
            case 304:
                return (.notModified(etag: response.headers["etag"], lastModified: response.headers["last-modified"]), requests)
            case 301, 302, 303, 307, 308:
                guard let location = response.headers["location"],
                    let target = ImagePolicy.resolve(location: location, against: current)
                else {
                    return (.rejected("bad_redirect", "\(response.status) without a usable Location"), requests)
                }
                switch policy.check(target) {
                case .failure(let violation):
                    return (.rejected("redirect_not_allowed", "\(violation.rawValue): \(target)"), requests)
                case .success(let next):
                    guard requests <= Self.maxRedirects else {
                        return (.rejected("too_many_redirects", "more than \(Self.maxRedirects)"), requests)
                    }
                    current = next
                }
            default:
                return (.failed("http_\(response.status)", "HTTP \(response.status)"), requests)
            }
        }
    }

    /// Remote text in a log line: bounded.
    static func shorten(_ text: String) -> String {
        text.count <= 200 ? text : String(text.prefix(200)) + "…"
    }
}
