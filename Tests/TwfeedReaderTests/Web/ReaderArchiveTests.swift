import Foundation
import Testing
import TwfeedArchive
@testable import TwfeedCore
@testable import TwfeedKit
@testable import TwfeedStore
import TwfeedTesting

/// An imported archive in the reader: `/posts` and `/likes` are feeds like the others,
/// in the navigation, with their photos, conversation links and Atom feeds; a like's
/// unknown author is said in words, never as "@null" or "@0".
@Suite struct ReaderArchiveTests {
    static let postID: Int64 = 3001
    static let replyID: Int64 = 3002
    static let likeID = TweetID(1_506_267_366_391_803_904)
    static let photoURL = "https://pbs.twimg.com/media/Arch1ve.png"

    static func imported() async throws -> ReaderHarness {
        let world = try await ReaderHarness()
        let me = UserID(99)
        let photo = Media(key: "3_1", kind: .photo, imageURL: photoURL, width: 1, height: 1, altText: "a map")
        let archive = FakeArchive(
            account: ArchiveAccount(id: me, username: "me"),
            posts: [
                Tweet(id: TweetID(postID), authorID: me, createdAt: Date(timeIntervalSince1970: 1_400_000_000),
                      text: "From my archive, with a map", media: [photo]),
                Tweet(id: TweetID(replyID), authorID: me, createdAt: Date(timeIntervalSince1970: 1_400_000_100),
                      text: "@me and a reply to it", inReplyToID: TweetID(postID)),
            ],
            likes: [ArchivedLike(id: likeID, text: ReaderHarness.hostileText)],
            photos: [(ArchivedPhoto(tweetID: TweetID(postID), path: "data/tweets_media/\(postID)-Arch1ve.png", mediaName: "Arch1ve.png",
                                    byteCount: ReaderHarness.png.count), Data(ReaderHarness.png))]
        )
        let importer = ArchiveImporter(
            database: world.database, images: ImageStore(root: world.config.storage.imageCache), clock: ManualClock(), logger: world.logger)
        let summary = try await importer.run(archive, dryRun: false)
        #expect(summary.photos == 1)
        return world
    }

    @Test func postsShowsTheImportedHistoryWithItsPhotosAndConversations() async throws {
        let world = try await Self.imported()
        let file = try #require(try await world.database.photo(Self.photoURL)?.file)
        try await world.withReader { reader in
            let page = try await reader.request("/posts")
            #expect(page.status == 200)
            let html = page.text
            #expect(html.contains("From my archive, with a map"))
            #expect(html.contains(#"src="/media/\#(file)""#))
            #expect(html.contains(#"href="/tweet/\#(Self.postID)""#))
            #expect(html.contains(#"href="/posts""#) && html.contains(#"href="/likes""#), "both are in the navigation")
            #expect(try await reader.request("/media/\(file)").body == ReaderHarness.png)
            let thread = try await reader.request("/tweet/\(Self.replyID)")
            #expect(thread.status == 200 && thread.text.contains("From my archive, with a map"))
            let atom = try await reader.request("/feeds/posts.atom")
            #expect(atom.status == 200 && atom.text.contains("tag:twitter.com,2006:status/\(Self.postID)"))
        }
    }

    @Test func aLikesUnknownAuthorIsShownSafely() async throws {
        let world = try await Self.imported()
        try await world.withReader { reader in
            let page = try await reader.request("/likes")
            #expect(page.status == 200)
            let html = page.text
            #expect(html.contains("author not fetched yet"))
            #expect(html.contains("&lt;script&gt;alert(2)&lt;/script&gt;") && !html.contains("<script>alert(2)"))
            #expect(!html.contains("@null") && !html.contains(">@0<") && !html.contains("/i/user/0"))
            #expect(html.contains("https://x.com/i/web/status/\(Self.likeID)"))
            let api = try await reader.request("/api/feed/likes")
            #expect(api.status == 200 && api.text.contains(#""author":null"#))
            let atom = try await reader.request("/feeds/likes.atom")
            #expect(atom.status == 200 && !atom.text.contains("@null") && !atom.text.contains("(@)"))
        }
    }
}
