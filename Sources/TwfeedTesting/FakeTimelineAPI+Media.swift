import Foundation
import TwfeedCore
import TwfeedKit

/// The fake API's photos and deletions: what was uploaded (and when each id expires),
/// which alt texts were set, what was deleted, and scripted failures for each step.
package struct FakeMedia: Sendable {
    package struct Upload: Sendable, Equatable {
        package var mediaID: String
        package var bytes: Data
        package var mime: String
        package var fileName: String
        package var expiresAt: Date
    }

    /// Every upload the API took, in order (lost answers included).
    package var uploads: [Upload] = []
    /// Each alt text set, in order.
    package var altTexts: [(mediaID: String, text: String)] = []
    /// Each deletion the API carried out, in order.
    package var deleted: [TweetID] = []
    /// How long an upload's id is valid (`expires_after_secs`); nil: the answer omits it.
    package var expiresAfter: Double? = 86_400
    /// Failures for the next calls of each step, first first.
    package var uploadFailures: [APIError] = []
    package var altFailures: [APIError] = []
    package var deleteFailures: [APIError] = []
    /// Carry out the next call of the step, then fail as if its answer were lost.
    package var loseNextUpload = false
    package var loseNextAlt = false
    package var loseNextDelete = false
    var nextID = 1_000

    func isValid(_ mediaID: String, now: Date) -> Bool {
        uploads.contains { $0.mediaID == mediaID && $0.expiresAt > now }
    }

    static let lost = APIError(kind: .transient, status: 0, message: "connectionReset: Connection reset by peer")
}

extension FakeTimelineAPI {
    package var uploads: [FakeMedia.Upload] { state.withLock { $0.media.uploads } }
    package var deletedTweets: [TweetID] { state.withLock { $0.media.deleted } }
    /// The media ids each post was made with, in order.
    package var postedMedia: [[String]] { state.withLock { $0.posted.map(\.mediaIDs) } }
    package var altTexts: [(mediaID: String, text: String)] { state.withLock { $0.media.altTexts } }

    package func uploadMedia(_ bytes: Data, type mime: String, fileName: String) async throws -> (mediaID: String, expiresAfter: Double?) {
        let now = clock.now()
        return try state.withLock { state in
            if !state.media.uploadFailures.isEmpty { throw state.media.uploadFailures.removeFirst() }
            state.media.nextID += 1
            let id = "\(state.media.nextID)"
            let life = state.media.expiresAfter ?? 86_400
            state.media.uploads.append(
                FakeMedia.Upload(mediaID: id, bytes: bytes, mime: mime, fileName: fileName, expiresAt: now.addingTimeInterval(life))
            )
            if state.media.loseNextUpload {
                state.media.loseNextUpload = false
                throw FakeMedia.lost
            }
            return (id, state.media.expiresAfter)
        }
    }

    package func setAltText(mediaID: String, text: String) async throws {
        let now = clock.now()
        try state.withLock { state in
            if !state.media.altFailures.isEmpty { throw state.media.altFailures.removeFirst() }
            guard state.media.isValid(mediaID, now: now) else {
                throw APIError(kind: .rejected, status: 400, message: "media id \(mediaID) is unknown or expired")
            }
            state.media.altTexts.append((mediaID, text))
            if state.media.loseNextAlt {
                state.media.loseNextAlt = false
                throw FakeMedia.lost
            }
        }
    }

    /// Deletes an own post: gone from the own posts and from lookups (reported
    /// unavailable); another's or an unknown post is a 404, as the API answers.
    package func deleteTweet(_ id: TweetID) async throws {
        try state.withLock { state in
            if !state.media.deleteFailures.isEmpty { throw state.media.deleteFailures.removeFirst() }
            guard state.ownTweets.contains(where: { $0.id == id }) || state.lookupTweets[id]?.authorID == state.account.id else {
                throw APIError(kind: .rejected, status: 404, message: "Could not find tweet with id: [\(id)].")
            }
            state.ownTweets.removeAll { $0.id == id }
            state.lookupTweets[id] = nil
            state.unavailable[id] = "Not Found Error: Could not find tweet with ids: [\(id)]."
            state.media.deleted.append(id)
            if state.media.loseNextDelete {
                state.media.loseNextDelete = false
                throw FakeMedia.lost
            }
        }
    }
}
