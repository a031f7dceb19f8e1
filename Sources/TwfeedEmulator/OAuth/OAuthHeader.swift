import Foundation

/// The protocol parameters of an `Authorization: OAuth ...` header.
struct OAuthHeader {
    /// Every `oauth_*` parameter, decoded, `realm` left out (it is not signed).
    let parameters: [(name: String, value: String)]

    subscript(_ name: String) -> String? { parameters.first { $0.name == name }?.value }

    /// Parses `OAuth k1="v1", k2="v2"`; nil when the header is not OAuth or is malformed.
    init?(_ header: String) {
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        guard trimmed.count > 6, trimmed.prefix(6).lowercased() == "oauth " else { return nil }
        var found: [(name: String, value: String)] = []
        for item in trimmed.dropFirst(6).split(separator: ",") {
            let pair = item.trimmingCharacters(in: .whitespaces)
            guard !pair.isEmpty else { continue }
            guard let equals = pair.firstIndex(of: "=") else { return nil }
            let rawName = String(pair[..<equals]).trimmingCharacters(in: .whitespaces)
            var rawValue = String(pair[pair.index(after: equals)...]).trimmingCharacters(in: .whitespaces)
            if rawValue.count >= 2, rawValue.hasPrefix("\""), rawValue.hasSuffix("\"") {
                rawValue = String(rawValue.dropFirst().dropLast())
            }
            guard let name = OAuthSignature.percentDecode(rawName),
                let value = OAuthSignature.percentDecode(rawValue)
            else { return nil }
            if name == "realm" { continue }
            found.append((name, value))
        }
        parameters = found
    }
}
