import Foundation
import Testing
import TwfeedCore

@testable import TwfeedArchive

/// The made-up archives under Fixtures/ (one per generation) and a scratch folder.
enum ArchiveFixture {
    static func folder(_ name: String) -> String {
        Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.appendingPathComponent(name).path
    }

    static func scratch() -> String {
        let path = NSTemporaryDirectory() + "twfeed-archive-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Every post and like of `archive`, read in batches of 3.
    static func read(_ archive: any ArchiveReading) async throws -> (posts: [Tweet], likes: [ArchivedLike]) {
        var posts: [Tweet] = []
        var likes: [ArchivedLike] = []
        try await archive.posts(batchSize: 3) { batch in
            #expect(batch.count <= 3)
            posts += batch
        }
        try await archive.likes(batchSize: 3) { likes += $0 }
        return (posts, likes)
    }

    /// The error `body` throws, if an `ArchiveError`.
    static func refusal(_ body: () async throws -> Void) async -> ArchiveError? {
        do {
            try await body()
            return nil
        } catch let error as ArchiveError {
            return error
        } catch {
            return nil
        }
    }
}
