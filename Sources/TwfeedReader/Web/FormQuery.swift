import Foundation

/// A URL's query as an HTML form sends it (`application/x-www-form-urlencoded`): `+`
/// is a space, `%XX` a byte. Hummingbird's parameters decode `%XX` but keep `+`, which
/// would turn a search for `two words` into `two+words`.
struct FormQuery {
    private(set) var values: [String: String] = [:]

    init(_ query: String?) {
        for pair in (query ?? "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ text: Substring) -> String? {
                String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
            }
            guard let name = decode(parts[0]), values[name] == nil else { continue }
            values[name] = parts.count > 1 ? decode(parts[1]) ?? "" : ""
        }
    }

    subscript(name: String) -> String? { values[name] }
}
