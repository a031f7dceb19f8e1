import Foundation
import TwfeedBilling
import TwfeedCore

/// A failed API call, classified by what the caller should do about it.
package struct APIError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Kind: Sendable, Equatable {
        /// 429: wait until the reset time, then go on.
        case rateLimited
        /// 401: the credentials are wrong or revoked; retrying soon will not help.
        case unauthorized
        /// 5xx, timeouts, resets, broken bodies: worth retrying with backoff.
        case transient
        /// Any other 4xx: the request itself is refused.
        case rejected

        /// The `outcome` label of `twfeed_poll_requests_total` for a request that failed so.
        package var metricLabel: String {
            switch self {
            case .rateLimited: "rate_limited"
            case .unauthorized: "unauthorized"
            case .transient: "transient"
            case .rejected: "rejected"
            }
        }
    }

    package var kind: Kind
    /// The HTTP status; 0 when there was no answer.
    package var status: Int
    /// The API's own error code (v1.1 `code`), when it gave one.
    package var code: Int?
    /// One line: the API's reason, or what went wrong on the way.
    package var message: String
    package var rateLimit: RateLimit?
    /// False only when the request certainly never reached the server (the connection
    /// was refused, the URL is invalid): a post that failed so is certainly not out. Any
    /// other failure of a post may have come after the server took it.
    package var mayHaveArrived: Bool
    /// A refusal for money or entitlement (402, a spend or usage cap, an endpoint not
    /// enrolled), told apart by the body: it has a state of its own, not a backoff.
    package var refusal: BillingRefusal?

    package init(
        kind: Kind,
        status: Int,
        code: Int? = nil,
        message: String,
        rateLimit: RateLimit? = nil,
        mayHaveArrived: Bool = true,
        refusal: BillingRefusal? = nil
    ) {
        self.kind = kind
        self.status = status
        self.code = code
        self.message = message
        self.rateLimit = rateLimit
        self.mayHaveArrived = mayHaveArrived
        self.refusal = refusal
    }

    package var description: String {
        PollFailure.line(status: status > 0 ? status : nil, code: code, message: message)
    }

    /// What a feed's sync state records of this failure (`status` prints its line).
    package var pollFailure: PollFailure {
        let failed: PollFailure.Kind =
            switch kind {
            case .rateLimited: .rateLimited
            case .unauthorized: .unauthorized
            case .transient: .transient
            case .rejected: .rejected
            }
        return PollFailure(kind: failed, status: status > 0 ? status : nil, code: code, message: message)
    }

    /// What an outbox status records of this failure: an attempt's by default, or the
    /// answer of a settling read, or the duplicate answer a status is sent on.
    package func outboxFailure(_ kind: OutboxFailure.Kind = .attempt) -> OutboxFailure {
        OutboxFailure(kind: kind, status: status > 0 ? status : nil, code: code, message: message)
    }

    /// Classifies an HTTP answer that is not a success, reading either dialect's body.
    /// `package` for the page fuzzers, which feed it error bodies.
    package static func from(_ response: APIResponse) -> APIError {
        let rateLimit = RateLimit(headers: response.headers)
        var code: Int?
        var message = HTTPStatusText.of(response.status)
        if let body = try? JSONValue.parse(response.body) {
            if let first = body["errors"]?.array?.first {
                code = first["code"]?.int
                message = first["message"]?.string ?? first["detail"]?.string ?? message
            }
            if let detail = body["detail"]?.string ?? body["title"]?.string {
                message = detail
            }
        }
        let kind: Kind
        switch response.status {
        case 429: kind = .rateLimited
        // v1.1's posting limit ("User is over daily status update limit.") comes as a 403,
        // not a 429, but it is a limit that resets like one: the status waits, it has not
        // failed (x-api.md: "185 posting limit reached (403)").
        case 403 where code == 185: kind = .rateLimited
        case 401: kind = .unauthorized
        case 500...: kind = .transient
        case 408: kind = .transient
        default: kind = .rejected
        }
        return APIError(
            kind: kind,
            status: response.status,
            code: code,
            message: message,
            rateLimit: rateLimit,
            refusal: BillingRefusal.classify(status: response.status, body: response.body)
        )
    }

    static func transport(_ error: TransportError) -> APIError {
        APIError(
            kind: .transient,
            status: 0,
            message: error.description,
            mayHaveArrived: ![.connectionFailed, .invalidURL, .addressNotAllowed].contains(error.kind)
        )
    }

    static func malformed(_ detail: String, status: Int, rateLimit: RateLimit?) -> APIError {
        APIError(kind: .transient, status: status, message: "malformed answer: \(detail)", rateLimit: rateLimit)
    }
}

enum HTTPStatusText {
    static func of(_ status: Int) -> String {
        switch status {
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 402: "Payment Required"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: "HTTP \(status)"
        }
    }
}
