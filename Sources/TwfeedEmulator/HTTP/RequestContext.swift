import Foundation

/// What a route handler gets about its request.
struct RequestContext {
    let request: EmulatorRequest
    let now: Date
    /// `http://` + the Host the client used: where profile image URLs point, so they work
    /// whether the client says 127.0.0.1, localhost or ::1.
    let imageBase: String
    /// The verified access token (rate limits are per token).
    let token: String

    /// Query parameters followed by form body parameters.
    var parameters: [(name: String, value: String)] { request.queryItems + request.formItems }

    func parameter(_ name: String) -> String? { parameters.first { $0.name == name }?.value }
}
