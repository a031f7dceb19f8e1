import Foundation
import TwfeedCore

/// An opened archive, zip or folder, read in batches with bounded memory. The import
/// checks the whole archive first (`check()`), then stores it, so bad input changes
/// nothing; `--dry-run` is the check alone.
package protocol ArchiveReading: Sendable {
    /// From `account.js`.
    var account: ArchiveAccount { get }
    /// The files under `data/` that twfeed does not read (deleted posts, DMs, …), sorted.
    var ignoredFiles: [String] { get }
    /// The photos in the media folder whose name starts with a post id.
    var photos: [ArchivedPhoto] { get }

    /// Reads every data file through without keeping it: throws the first `ArchiveError`.
    func check() async throws(ArchiveError)
    /// Your posts, as the store keeps the API's: `authorID` the account's id, the whole
    /// text (a long post's note matched to it), entities decoded, links and media from the
    /// post's entities, `rawJSON` the archive's object for the post.
    func posts(batchSize: Int, _ body: ([Tweet]) async throws -> Void) async throws
    /// Your likes, in the order the archive lists them.
    func likes(batchSize: Int, _ body: ([ArchivedLike]) async throws -> Void) async throws
    /// The bytes of one photo, read from the archive (never unpacked to disk).
    func photoBytes(_ photo: ArchivedPhoto) throws(ArchiveError) -> Data
}
