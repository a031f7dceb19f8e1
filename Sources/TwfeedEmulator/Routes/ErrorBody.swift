/// The error answers of each dialect, with the bodies the real API sends, so a client's
/// error handling meets the real shapes: v1.1 `{"errors":[{"code","message"}]}`, v2
/// problem objects `{"title","type","status","detail"}`.
enum ErrorBody {
    static let problemContentType = "application/problem+json"

    static func v11(_ status: Int, code: Int, message: String) -> EmulatorResponse {
        .json(status, .object([("errors", .array([.object([("code", .int(code)), ("message", .string(message))])]))]))
    }

    static func problem(_ status: Int, title: String, detail: String, type: String = "about:blank") -> EmulatorResponse {
        .json(
            status,
            .object([
                ("title", .string(title)), ("type", .string(type)), ("status", .int(status)), ("detail", .string(detail)),
            ]),
            contentType: problemContentType
        )
    }

    static func unauthorized(_ dialect: EmulatorDialect, _ failure: OAuthFailure) -> EmulatorResponse {
        switch dialect {
        case .v2:
            return problem(401, title: "Unauthorized", detail: "Unauthorized")
        case .v1_1:
            switch failure {
            case .invalidToken: return v11(401, code: 89, message: "Invalid or expired token.")
            case .timestampOutOfBounds: return v11(401, code: 135, message: "Timestamp out of bounds.")
            case .couldNotAuthenticate, .badSignature, .nonceReused:
                return v11(401, code: 32, message: "Could not authenticate you.")
            }
        }
    }

    static func tooManyRequests(_ dialect: EmulatorDialect) -> EmulatorResponse {
        switch dialect {
        case .v2: problem(429, title: "Too Many Requests", detail: "Too Many Requests")
        case .v1_1: v11(429, code: 88, message: "Rate limit exceeded")
        }
    }

    static func notFound(_ dialect: EmulatorDialect) -> EmulatorResponse {
        switch dialect {
        case .v2: problem(404, title: "Not Found", detail: "Not Found")
        case .v1_1: v11(404, code: 34, message: "Sorry, that page does not exist.")
        }
    }

    /// An injected error status.
    static func status(_ status: Int, _ dialect: EmulatorDialect) -> EmulatorResponse {
        switch (dialect, status) {
        case (.v1_1, 503): v11(503, code: 130, message: "Over capacity")
        case (.v1_1, 500): v11(500, code: 131, message: "Internal error")
        case (.v1_1, 429): tooManyRequests(.v1_1)
        case (.v1_1, 401): unauthorized(.v1_1, .couldNotAuthenticate)
        case (.v1_1, _): v11(status, code: 0, message: EmulatorResponse.reason(status))
        case (.v2, _): problem(status, title: EmulatorResponse.reason(status), detail: EmulatorResponse.reason(status))
        }
    }

    /// One rejected v2 query parameter.
    struct ParameterError {
        let parameter: String
        let value: String
        let message: String
    }

    /// v2's 400 for invalid parameters: an `errors` array naming each parameter.
    static func invalidRequest(_ errors: [ParameterError]) -> EmulatorResponse {
        let items: [EmulatorJSON] = errors.map { error in
            .object([
                ("parameters", .object([(error.parameter, .array([.string(error.value)]))])),
                ("message", .string(error.message)),
            ])
        }
        return .json(
            400,
            .object([
                ("errors", .array(items)),
                ("title", .string("Invalid Request")),
                ("detail", .string("One or more parameters to your request was invalid.")),
                ("type", .string("https://api.twitter.com/2/problems/invalid-request")),
            ])
        )
    }
}
