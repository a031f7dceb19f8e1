import Foundation
import TwfeedEmulator

extension EmulatorRequestRecord {
    /// The query parameters of the request, by name: what a test checks a client sent.
    var parameters: [String: String] {
        var components = URLComponents()
        components.percentEncodedQuery = query
        return Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }) { $1 }
    }
}
