import Foundation
import Testing

/// Event names are a contract with the people tailing the log: every name the code
/// logs has its row in docs/OPERATIONS.md.
struct EventCatalogTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func everyLoggedEventIsListedInTheOperationsGuide() throws {
        let guide = try String(contentsOf: Self.root.appendingPathComponent("docs/OPERATIONS.md"), encoding: .utf8)
        let call = #/logger\.(?:trace|debug|info|notice|warning|error|critical)\(\s*"([a-z_]+\.[a-z_.]+)"/#
        var events: Set<String> = []
        // Every target: the reader and the store log too.
        let sources = Self.root.appendingPathComponent("Sources").path
        let enumerator = try #require(FileManager.default.enumerator(atPath: sources))
        while let name = enumerator.nextObject() as? String {
            guard name.hasSuffix(".swift") else { continue }
            let text = try String(contentsOfFile: "\(sources)/\(name)", encoding: .utf8)
            for match in text.matches(of: call) { events.insert(String(match.1)) }
        }
        #expect(events.count > 20)
        for event in events.sorted() {
            #expect(guide.contains("| `\(event)` |"), "docs/OPERATIONS.md lists no event \(event)")
        }
    }
}
