import Foundation
import Testing
import TwfeedCore
@testable import TwfeedStore

/// The outbox's second floor in the store: photos queued with their bytes, threads whole,
/// a time to send, deletions of the account's own posts only, and each sending step
/// recorded on its own.
struct OutboxDraftsStoreTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let me = UserID(42)

    func database() async throws -> AppDatabase {
        let database = try AppDatabase.inMemory()
        try await database.saveAccount(Account(userID: me, username: "me"))
        return database
    }

    func photo(_ name: String, _ bytes: [UInt8], alt: String? = nil) -> PhotoDraft {
        PhotoDraft(fileName: name, type: .png, bytes: Data(bytes), alt: alt)
    }

    @Test func aPostsPhotosAreQueuedWithTheirBytesInOrder() async throws {
        let database = try await database()
        let item = try await database.enqueue(
            StatusDraft(text: "two photos", photos: [photo("a.png", [1, 2, 3], alt: "first"), photo("b.png", [4, 5])]), now: now)
        #expect(item.photos.map(\.fileName) == ["a.png", "b.png"])
        #expect(item.photos.map(\.alt) == ["first", nil])
        #expect(item.photos.map(\.byteCount) == [3, 2])
        #expect(try await database.photoBytes(outboxID: item.id, position: 1) == Data([4, 5]))
        let json = item.json
        guard case .object(let fields) = json, case .array(let photos)? = fields["photos"] else {
            Issue.record("no photos in \(json)")
            return
        }
        #expect(photos.count == 2)
        #expect(fields["kind"] == .string("post"))
    }

    @Test func eachUploadStepIsRecordedAndAnExpiredIdIsForgotten() async throws {
        let database = try await database()
        let item = try await database.enqueue(StatusDraft(text: "p", photos: [photo("a.png", [1], alt: "x")]), now: now)
        try await database.recordPhotoUpload(outboxID: item.id, position: 0, mediaID: "77", expiresAt: now.addingTimeInterval(86400))
        try await database.recordPhotoAlt(outboxID: item.id, position: 0, at: now)
        var photo = try #require(try await database.outboxItem(item.id)?.photos.first)
        #expect(photo.mediaID == "77")
        #expect(photo.altSetAt == now)
        try await database.forgetPhotoUpload(outboxID: item.id, position: 0)
        photo = try #require(try await database.outboxItem(item.id)?.photos.first)
        #expect(photo.mediaID == nil && photo.altSetAt == nil)
    }

    @Test func aSentPostDropsItsPhotoBytesButKeepsWhatOutboxShows() async throws {
        let database = try await database()
        let item = try await database.enqueue(StatusDraft(text: "p", photos: [photo("a.png", [1, 2])]), now: now)
        _ = try await database.transitionOutbox(item.id, from: [.pending], to: .sending)
        _ = try await database.transitionOutbox(item.id, from: [.sending], to: .sent, changes: [.sentTweetID(TweetID(900))])
        #expect(try await database.photoBytes(outboxID: item.id, position: 0) == nil)
        #expect(try await database.outboxItem(item.id)?.photos.first?.fileName == "a.png")
    }

    @Test func aThreadsPartsGoOutOnlyAfterTheirParentWithItsId() async throws {
        let database = try await database()
        let parts = try await database.enqueueThread(
            [StatusDraft(text: "one"), StatusDraft(text: "two"), StatusDraft(text: "three")], now: now)
        #expect(parts.map(\.thread) == (1...3).map { OutboxThread(id: parts[0].id, part: $0, parts: 3) })
        #expect(try await database.nextDueOutboxItem(now: now)?.id == parts[0].id)
        _ = try await database.transitionOutbox(parts[0].id, from: [.pending], to: .sending)
        // Part 1 on its way: part 2 waits, though pending.
        #expect(try await database.nextDueOutboxItem(now: now) == nil)
        _ = try await database.transitionOutbox(parts[0].id, from: [.sending], to: .sent, changes: [.sentTweetID(TweetID(1001))])
        let next = try #require(try await database.nextDueOutboxItem(now: now))
        #expect(next.id == parts[1].id)
        #expect(next.replyToID == TweetID(1001))
        #expect(try await database.threadParts(parts[0].id).map(\.text) == ["one", "two", "three"])
    }

    @Test func aStatusWaitsForItsTimeAndLaterOnesPassIt() async throws {
        let database = try await database()
        let later = try await database.enqueue(StatusDraft(text: "at nine", notBefore: now.addingTimeInterval(90)), now: now)
        let plain = try await database.enqueue(StatusDraft(text: "now"), now: now)
        #expect(try await database.nextDueOutboxItem(now: now)?.id == plain.id)
        #expect(try await database.nextOutboxTime(after: now) == now.addingTimeInterval(90))
        _ = try await database.transitionOutbox(plain.id, from: [.pending], to: .cancelled)
        #expect(try await database.nextDueOutboxItem(now: now.addingTimeInterval(89)) == nil)
        #expect(try await database.nextDueOutboxItem(now: now.addingTimeInterval(90))?.id == later.id)
        #expect(later.ageOrigin == now.addingTimeInterval(90))
    }

    @Test func onlyTheAccountsOwnStoredPostsCanBeDeletedOnce() async throws {
        let database = try await database()
        try await database.storeOwnTweet(Tweet(id: TweetID(500), authorID: me, createdAt: now, text: "mine"), now: now)
        try await database.storeOwnTweet(Tweet(id: TweetID(501), authorID: UserID(7), createdAt: now, text: "theirs"), now: now)
        let deletion = try await database.enqueueDeletion(of: TweetID(500), now: now)
        #expect(deletion.kind == .delete && deletion.targetTweetID == TweetID(500))
        await #expect(throws: TwfeedError(.invalidData, "delete 500: its deletion is already queued as status #\(deletion.id)")) {
            try await database.enqueueDeletion(of: TweetID(500), now: now)
        }
        await #expect(throws: TwfeedError(.invalidData, "delete 501: the post is not yours")) {
            try await database.enqueueDeletion(of: TweetID(501), now: now)
        }
        await #expect(throws: TwfeedError(.invalidData, "delete 502: no such post of yours is stored")) {
            try await database.enqueueDeletion(of: TweetID(502), now: now)
        }
        let queued = try await database.enqueue(StatusDraft(text: "still here"), now: now)
        await #expect(throws: TwfeedError.self) { try await database.enqueueDeletion(of: TweetID(queued.id), now: now) }
        // The deletion sent: the post is marked deleted in the same transaction.
        _ = try await database.transitionOutbox(deletion.id, from: [.pending], to: .sending)
        _ = try await database.transitionOutbox(deletion.id, from: [.sending], to: .sent, changes: [.sentAt(now)])
        #expect(try await database.storedTweet(TweetID(500))?.deletedAt == now)
    }
}
