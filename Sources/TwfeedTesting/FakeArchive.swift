import Foundation
import TwfeedArchive
import TwfeedCore

/// An archive in memory, as a reader of the real format would hand it over: for the
/// import's tests, without zips or the format's files. `failure` makes `check()` refuse
/// it (and nothing else is read, as the real reader's check comes first).
package struct FakeArchive: ArchiveReading {
    package var account: ArchiveAccount
    package var ignoredFiles: [String]
    package var postList: [Tweet]
    package var likeList: [ArchivedLike]
    /// Each photo with its bytes.
    package var photoFiles: [(photo: ArchivedPhoto, bytes: Data)]
    package var failure: ArchiveError?

    package init(
        account: ArchiveAccount,
        posts: [Tweet] = [],
        likes: [ArchivedLike] = [],
        photos: [(photo: ArchivedPhoto, bytes: Data)] = [],
        ignoredFiles: [String] = [],
        failure: ArchiveError? = nil
    ) {
        self.account = account
        self.postList = posts
        self.likeList = likes
        self.photoFiles = photos
        self.ignoredFiles = ignoredFiles
        self.failure = failure
    }

    package var photos: [ArchivedPhoto] { photoFiles.map(\.photo) }

    package func check() async throws(ArchiveError) {
        if let failure { throw failure }
    }

    package func posts(batchSize: Int, _ body: ([Tweet]) async throws -> Void) async throws {
        for start in stride(from: 0, to: postList.count, by: batchSize) {
            try await body(Array(postList[start..<min(start + batchSize, postList.count)]))
        }
    }

    package func likes(batchSize: Int, _ body: ([ArchivedLike]) async throws -> Void) async throws {
        for start in stride(from: 0, to: likeList.count, by: batchSize) {
            try await body(Array(likeList[start..<min(start + batchSize, likeList.count)]))
        }
    }

    package func photoBytes(_ photo: ArchivedPhoto) throws(ArchiveError) -> Data {
        guard let found = photoFiles.first(where: { $0.photo == photo }) else {
            throw ArchiveError(.unreadable, file: photo.path, "no such entry")
        }
        return found.bytes
    }
}
