import Foundation
import Testing
import TwfeedCore

@testable import TwfeedArchive

/// What the writer writes, the reader reads back the same: whole texts (long posts through
/// their notes, replies' notes without the mentions), links, photos, likes, in each form.
@Suite struct ArchiveWriterTests {
    let account = ArchiveAccount(id: UserID(42), username: "round_trip", displayName: "Round Trip")
    let start = Date(timeIntervalSince1970: 1_690_000_000)

    func writer() -> ArchiveWriter {
        let long = String(repeating: "a river & a <weir> ", count: 20) + "the end https://t.co/LongLink01"
        let posts = [
            ArchiveWriter.Post(
                id: TweetID(1_600_000_000_000_000_001), createdAt: start, text: "Tea & cake <3 https://t.co/Link000001",
                links: [TweetLink(url: "https://t.co/Link000001", expandedURL: "https://example.org/cake", displayURL: "example.org/cake")]),
            ArchiveWriter.Post(
                id: TweetID(1_600_000_000_000_000_002), createdAt: start.addingTimeInterval(60), text: long,
                links: [TweetLink(url: "https://t.co/LongLink01", expandedURL: "https://example.org/long", displayURL: nil)]),
            ArchiveWriter.Post(
                id: TweetID(1_600_000_000_000_000_003), createdAt: start.addingTimeInterval(60), text: "Same second, short"),
            ArchiveWriter.Post(
                id: TweetID(1_600_000_000_000_000_004), createdAt: start.addingTimeInterval(120),
                text: "@someone @other " + String(repeating: "a long answer ", count: 25), inReplyToID: TweetID(1_500_000_000_000_000_001)),
            ArchiveWriter.Post(
                id: TweetID(1_600_000_000_000_000_005), createdAt: start.addingTimeInterval(180), text: "A heron 🐦",
                photos: [ArchiveWriter.Photo(mediaID: "1600000000000000099", name: "Heron01.jpg", bytes: Data([0xFF, 0xD8, 1, 2, 3]))]),
            ArchiveWriter.Post(
                id: TweetID(1_600_000_000_000_000_006), createdAt: start.addingTimeInterval(240), text: "Look at this",
                quotedID: TweetID(1_500_000_000_000_000_002)),
        ]
        var writer = ArchiveWriter(
            account: account, posts: posts,
            likes: [
                ArchivedLike(id: TweetID(1_400_000_000_000_000_001), text: "fish & chips", expandedURL: "https://twitter.com/i/web/status/1400000000000000001"),
                ArchivedLike(id: TweetID(1_400_000_000_000_000_002)),
            ])
        writer.postsPerPart = 4
        return writer
    }

    @Test(arguments: [ArchiveWriter.Container.zip, .storedZip, .folder])
    func whatIsWrittenIsReadBack(_ container: ArchiveWriter.Container) async throws {
        let scratch = ArchiveFixture.scratch()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let path = scratch + (container == .folder ? "/archive" : "/archive.zip")
        let writer = writer()
        try writer.write(to: path, as: container)
        let archive = try ArchiveOpener.openArchive(path: path)
        try await archive.check()
        #expect(archive.account == account)
        #expect(archive.announcedPosts == 6 && archive.announcedLikes == 2)
        #expect(archive.ignoredFiles == ["data/deleted-tweets.js"])
        #expect(try archive.notes().count == 2)
        let (posts, likes) = try await ArchiveFixture.read(archive)
        #expect(posts.map(\.id) == writer.posts.map(\.id))
        #expect(posts.map(\.text) == writer.posts.map(\.text), "whole texts, escaped and unescaped again, notes matched")
        #expect(posts.map(\.createdAt) == writer.posts.map(\.createdAt))
        #expect(posts.map(\.inReplyToID) == writer.posts.map(\.inReplyToID))
        #expect(posts.map(\.quotedID) == writer.posts.map(\.quotedID))
        #expect(posts[0].links == writer.posts[0].links)
        #expect(posts[1].links == writer.posts[1].links, "a long post's link comes from its note")
        #expect(posts[4].media == [Media(key: "3_1600000000000000099", kind: .photo, imageURL: "https://pbs.twimg.com/media/Heron01.jpg", width: 1200, height: 800)])
        #expect(likes == writer.likes)
        #expect(archive.photos.map(\.tweetID) == [TweetID(1_600_000_000_000_000_005)])
        #expect(try archive.photoBytes(archive.photos[0]) == Data([0xFF, 0xD8, 1, 2, 3]))
    }

    @Test func entityIndicesCountCodePointsOfTheEscapedText() throws {
        var writer = writer()
        writer.posts = [
            ArchiveWriter.Post(
                id: TweetID(1_600_000_000_000_000_001), createdAt: start, text: "🐟 & <b> https://t.co/Link000001",
                links: [TweetLink(url: "https://t.co/Link000001", expandedURL: "https://example.org", displayURL: nil)])
        ]
        let tweets = try #require(writer.files().first { $0.0 == "data/tweets.js" }?.1)
        let element = try #require(try DataFile.elements(tweets, file: "t").first)
        let post = try JSONValue.parse(tweets[element])["tweet"]
        #expect(post?["full_text"]?.string == "🐟 &amp; &lt;b&gt; https://t.co/Link000001")
        #expect(post?["entities"]?["urls"]?.array?.first?["indices"] == .array([.string("18"), .string("41")]))
    }

    @Test func the2019GenerationAndZip64AreReadBack() async throws {
        let scratch = ArchiveFixture.scratch()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        var writer = writer()
        writer.posts = writer.posts.filter { $0.text.count <= ArchiveWriter.noteThreshold }
        writer.generation = .year2019
        writer.forceZip64 = true
        writer.topFolder = "twitter-2019-05-01-0123"
        try writer.write(to: scratch + "/old.zip", as: .zip)
        let archive = try ArchiveOpener.openArchive(path: scratch + "/old.zip")
        try await archive.check()
        #expect(archive.isOlderGeneration && archive.announcedPosts == nil)
        #expect(archive.photos.map(\.path) == ["twitter-2019-05-01-0123/data/tweet_media/1600000000000000005-Heron01.jpg"])
        let (posts, likes) = try await ArchiveFixture.read(archive)
        #expect(posts.map(\.text) == writer.posts.map(\.text))
        #expect(likes.count == 2)
    }
}
