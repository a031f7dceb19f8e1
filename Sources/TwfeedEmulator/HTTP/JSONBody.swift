import Foundation

/// Reading JSON request bodies (posts, control routes). Foundation's parser is fine here:
/// nothing the emulator reads carries a 64-bit number.
enum JSONBody {
    /// The body as a JSON object, or nil when it is not one.
    static func object(_ body: [UInt8]) -> [String: Any]? {
        guard !body.isEmpty else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
    }
}
