import Foundation
import Testing

/// The store's seal, as the source tree shows it: the compiler keeps GRDB's types out of
/// every target that does not import it, and these checks keep the imports where they
/// belong, so the seal cannot be undone by one stray `import GRDB`.
struct StoreSealTests {
    /// The package's root, from this file's path (Tests/TwfeedStoreTests/…).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    static func swiftFiles(under folder: String) -> [String] {
        let base = "\(root)/\(folder)"
        let names = FileManager.default.enumerator(atPath: base)?.compactMap { $0 as? String } ?? []
        return names.filter { $0.hasSuffix(".swift") }.map { "\(folder)/\($0)" }
    }

    static func contents(_ file: String) throws -> String {
        try String(contentsOfFile: "\(root)/\(file)", encoding: .utf8)
    }

    @Test func onlyTheStoreImportsGRDB() throws {
        let files = Self.swiftFiles(under: "Sources")
        #expect(files.count > 100, "the source tree is where the test expects it")
        let importers = try files.filter { file in
            try Self.contents(file).split(separator: "\n").contains { $0.hasPrefix("import GRDB") }
        }
        #expect(!importers.isEmpty)
        #expect(importers.allSatisfy { $0.hasPrefix("Sources/TwfeedStore/") }, "\(importers.filter { !$0.hasPrefix("Sources/TwfeedStore/") })")
    }

    /// The reader's pages, status and metrics hold a `StoreReader`, never the writer:
    /// what the compose and outbox pages change goes through `ReaderOutbox`, which the
    /// daemon and `twfeed serve` implement with a writer of their own (`DurableOutbox`).
    @Test(arguments: ["Sources/TwfeedReader", "Sources/TwfeedStatus"])
    func theReaderAndWhatItSharesNeverNameTheWriter(folder: String) throws {
        let files = Self.swiftFiles(under: folder)
        #expect(files.count > 5)
        let naming = try files.filter { try Self.contents($0).contains("AppDatabase") }
        #expect(naming.isEmpty, "\(naming)")
    }

    /// The layers run one way: the daemon reaches what it shares with the web reader
    /// (the status, the metrics, the reader's doors) in TwfeedStatus, below both, and
    /// is handed the reader's server (`Daemon.Dependencies.reader`), never imports it.
    @Test func theDaemonNeverImportsTheReader() throws {
        let files = Self.swiftFiles(under: "Sources/TwfeedKit")
        #expect(files.count > 50)
        let importers = try files.filter { file in
            try Self.contents(file).split(separator: "\n").contains { $0.hasSuffix("import TwfeedReader") }
        }
        #expect(importers.isEmpty, "\(importers)")
    }
}
