import Foundation
import Testing
@testable import TwfeedCore
@testable import TwfeedReader
@testable import TwfeedStore
import TwfeedTesting

/// `/outbox` on the second floor: a deletion with the post it removes, a thread's parts
/// with a blocked one (Retry and Cancel), photos with their upload state.
@Suite(.serialized)
struct ReaderOutboxPartsTests {
    @Test func theOutboxShowsKindsPartsPhotosAndABlockedPartsActions() async throws {
        let world = try await ReaderHarness()
        let me = Author(id: UserID(99), username: "me", name: "Me")
        let mine = Tweet(id: TweetID(3100), authorID: me.id, createdAt: Date(timeIntervalSince1970: 1_790_010_000), text: "regret")
        try await world.database.storePage(TimelinePage(tweets: [mine], authors: [me], nextPageToken: nil),
                                           feed: .home, state: SyncState(feed: .home), now: Date())
        let photo = PhotoDraft(fileName: "map.png", type: .png, bytes: Data(ReaderHarness.png), alt: "A map")
        let parts = try await world.database.enqueueThread(
            [StatusDraft(text: "first", photos: [photo]), StatusDraft(text: "second"), StatusDraft(text: "third")], now: Date())
        try await world.database.recordPhotoUpload(outboxID: parts[0].id, position: 0, mediaID: "1700", expiresAt: nil)
        try await world.database.recordPhotoAlt(outboxID: parts[0].id, position: 0, at: Date())
        try await world.database.transitionOutbox(parts[0].id, from: [.pending], to: .failed,
                                                  changes: [.lastError(OutboxFailure(stored: "403 Forbidden: not allowed"))])
        try await world.database.transitionOutbox(parts[1].id, from: [.pending], to: .blocked,
                                                  changes: [.lastError(OutboxFailure(stored: "part 1 failed: 403 Forbidden: not allowed"))])
        let deletion = try await world.database.enqueueDeletion(of: mine.id, now: Date())
        try await world.withReader(signedIn: false) { reader in
            let browser = try await ReaderComposeTests.Browser.signIn(world, reader: reader)
            let page = try await browser.get("/outbox").text
            let rows = Dictionary(uniqueKeysWithValues: page.components(separatedBy: "<tr class=\"item").dropFirst().map { row in
                (Int64(row.components(separatedBy: "data-id=\"")[1].prefix { $0.isNumber })!, row)
            })
            let removal = try #require(rows[deletion.id])
            #expect(removal.contains(#"<td class="kind">delete</td>"#) && removal.contains(#"<span class="target">deletes post <a href="/tweet/3100">3100</a></span>"#))
            #expect(removal.contains(#"<td class="cost">—</td>"#))
            let first = try #require(rows[parts[0].id])
            #expect(first.contains(#"<span class="part">part 1 of 3</span>"#))
            #expect(first.contains(#"<span class="file">map.png</span> · <span class="alt">A map</span> · <span class="upload">uploaded and described</span>"#))
            let blocked = try #require(rows[parts[1].id])
            #expect(blocked.contains(#"<td class="state">blocked</td>"#) && blocked.contains("part 1 failed: 403 Forbidden: not allowed"))
            #expect(blocked.contains(#"action="/outbox/\#(parts[1].id)/retry""#) && blocked.contains(#"action="/outbox/\#(parts[1].id)/cancel""#))
            #expect(!blocked.contains(#"<td class="expires"><time"#), "a blocked part waits for a retry, not its expiry")
            let third = try #require(rows[parts[2].id])
            #expect(third.contains(#"<td class="state">pending</td>"#) && !third.contains("/retry"))
            #expect(try await browser.post("/outbox/\(parts[1].id)/cancel", [("csrf", browser.csrf)]).status == 303)
            #expect(try await world.database.outboxItem(parts[1].id)?.state == .cancelled)
        }
    }
}
