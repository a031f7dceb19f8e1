import Foundation
import Testing
import TwfeedBase
import TwfeedCore

@testable import TwfeedArchive

@Suite struct ArchiveGenerationTests {
    let ada = ArchiveAccount(id: UserID(1_000_000_001), username: "ada_example", displayName: "Ada Example")

    @Test func todaysArchiveIsReadWholeWithNotesLinksAndMedia() async throws {
        let archive = try ArchiveOpener.openArchive(path: ArchiveFixture.folder("current"))
        try await archive.check()
        #expect(archive.account == ada)
        #expect(!archive.isOlderGeneration)
        #expect(archive.announcedPosts == 10 && archive.announcedLikes == 3)
        #expect(archive.ignoredFiles == ["data/deleted-tweets.js", "data/direct-messages.js"])
        #expect(archive.photos.map(\.mediaName) == ["F5xYzAbC.jpg"], "the mp4 is no photo")
        let (posts, likes) = try await ArchiveFixture.read(archive)
        #expect(posts.count == 10)
        let byID = Dictionary(uniqueKeysWithValues: posts.map { ($0.id.rawValue, $0) })
        #expect(posts.allSatisfy { $0.authorID == ada.id && $0.retweetOfID == nil })

        let first = try #require(byID[1_700_000_000_000_000_001])
        #expect(first.text == "Fish & chips <3 🐟 https://t.co/AbCdEf1234")
        #expect(first.createdAt == Timestamp.parseTwitterDate("Fri Sep 08 09:00:00 +0000 2023"))
        #expect(first.links == [TweetLink(url: "https://t.co/AbCdEf1234", expandedURL: "https://example.org/fish&chips", displayURL: "example.org/fish&chips")])
        #expect(first.conversationID == first.id && first.inReplyToID == nil)
        #expect(first.rawJSON.contains("\"edit_info\"") && !first.rawJSON.hasPrefix("{\n    \"tweet\""))
        #expect((try? JSONValue.parse(first.rawJSON))?["id_str"]?.string == "1700000000000000001")

        let photo = try #require(byID[1_700_000_000_000_000_002])
        #expect(photo.text == "Heron, again", "the media link is dropped as the API's is")
        #expect(photo.media == [
            Media(key: "3_1699999999999990001", kind: .photo, imageURL: "https://pbs.twimg.com/media/F5xYzAbC.jpg", width: 2048, height: 1536, altText: "A heron on a post"),
            Media(key: "7_1699999999999990002", kind: .video, imageURL: "https://pbs.twimg.com/ext_tw_video_thumb/1699999999999990002/pu/img/VidThumb.jpg", width: 1280, height: 720),
        ])

        let reply = try #require(byID[1_700_000_000_000_000_003])
        #expect(reply.text == "@bob Agreed > disagreed")
        #expect(reply.inReplyToID == TweetID(1_690_000_000_000_000_009) && reply.conversationID == nil)
        #expect(reply.repliedUser == RepliedUser(id: UserID(2_000_000_002), username: "bob"), "whom it answers, as the archive says")

        let long = try #require(byID[1_700_000_000_000_000_004])
        #expect(long.text.hasSuffix("a notebook <for the birds>, which is how most of my posts begin."))
        #expect(long.text.hasPrefix("A long thought about rivers & weirs"))
        let sameSecond = try #require(byID[1_700_000_000_000_000_005])
        #expect(sameSecond.text == "A short one in the same second", "the other post of that second keeps its own text")

        let longReply = try #require(byID[1_700_000_000_000_000_006])
        #expect(longReply.text.hasPrefix("@bob @cy_2 Here is the long answer"), "the note lacks the mentions; the post keeps them")
        #expect(longReply.repliedUser == RepliedUser(username: "bob"), "a screen name without its user id")
        #expect(first.repliedUser == nil)
        #expect(longReply.text.hasSuffix("& stops in winter when the race is drained. More at https://t.co/WheEl00001"))
        #expect(longReply.links.contains(TweetLink(url: "https://t.co/WheEl00001", expandedURL: "https://example.org/wheel", displayURL: "example.org/wheel")))

        #expect(byID[1_700_000_000_000_000_007]?.text.hasPrefix("RT @dee: The best river walks") == true)
        #expect(byID[1_700_000_000_000_000_008]?.text == "Frist version")
        #expect(byID[1_700_000_000_000_000_009]?.text == "First version", "each version of an edit is its own post")
        #expect(byID[1_710_000_000_000_000_001]?.quotedID == TweetID(1_690_000_000_000_000_009))
        #expect(posts.last?.id == TweetID(1_710_000_000_000_000_001), "tweets-part1.js after tweets.js")

        #expect(likes == [
            ArchivedLike(id: TweetID(1_650_000_000_000_000_001), text: "Salt & vinegar is the only crisp", expandedURL: "https://twitter.com/i/web/status/1650000000000000001"),
            ArchivedLike(id: TweetID(1_650_000_000_000_000_002), text: nil, expandedURL: "https://twitter.com/i/web/status/1650000000000000002"),
            ArchivedLike(id: TweetID(1_650_000_000_000_000_003), text: "A very long post that the archive cuts off somewhere in the middle of…", expandedURL: "https://twitter.com/i/web/status/1650000000000000003"),
        ])
        let bytes = try archive.photoBytes(archive.photos[0])
        #expect(bytes == Data("\u{FF}\u{D8}\u{FF}\u{E0}fakejpegbytes-heron".unicodeScalars.map { UInt8($0.value) }))
    }

    @Test func the2020ArchiveWrapsPostsInTweetJS() async throws {
        let archive = try ArchiveOpener.openArchive(path: ArchiveFixture.folder("y2020"))
        try await archive.check()
        #expect(archive.isOlderGeneration && archive.announcedPosts == nil)
        #expect(archive.photos == [ArchivedPhoto(tweetID: TweetID(1_250_000_000_000_000_002), path: "data/tweet_media/1250000000000000002-EVbread1.jpg", mediaName: "EVbread1.jpg", byteCount: 9)])
        let (posts, likes) = try await ArchiveFixture.read(archive)
        #expect(posts.map(\.text) == ["Staying in & https://t.co/Tw2020aaaa", "Bread"])
        #expect(posts[1].media.first?.width == 1024)
        #expect(likes.map(\.text) == ["Bake bread <now>"])
    }

    @Test func the2019ArchiveHasBareObjectsUnderATopFolder() async throws {
        let archive = try ArchiveOpener.openArchive(path: ArchiveFixture.folder("y2019"))
        try await archive.check()
        #expect(archive.account == ada)
        #expect(archive.ignoredFiles == ["data/ad-impressions.js"])
        let (posts, likes) = try await ArchiveFixture.read(archive)
        #expect(posts.map(\.text) == ["Spring & [brackets] {braces} \"quotes\"", "@bob quite right", "Part one of the split file"])
        #expect(posts[0].createdAt == Timestamp.parseTwitterDate("Sun Apr 21 20:19:24 +0000 2019"))
        #expect(posts[1].inReplyToID == TweetID(1_110_000_000_000_000_001))
        #expect(likes.map(\.id) == [TweetID(1_100_000_000_000_000_001)])
    }

    @Test(arguments: ["current", "y2020", "y2019"])
    func aZipReadsAsItsFolder(_ name: String) async throws {
        let scratch = ArchiveFixture.scratch()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let folder = try ArchiveOpener.openArchive(path: ArchiveFixture.folder(name))
        for (deflate, zip64) in [(true, false), (false, true)] {
            let zipPath = scratch + "/archive-\(deflate)-\(zip64).zip"
            try ArchiveWriter.zip(folder: ArchiveFixture.folder(name), to: zipPath, deflate: deflate, forceZip64: zip64)
            let zipped = try ArchiveOpener.openArchive(path: zipPath)
            try await zipped.check()
            #expect(zipped.account == folder.account)
            #expect(zipped.ignoredFiles == folder.ignoredFiles)
            #expect(zipped.photos == folder.photos)
            let fromZip = try await ArchiveFixture.read(zipped)
            let fromFolder = try await ArchiveFixture.read(folder)
            #expect(fromZip.posts == fromFolder.posts)
            #expect(fromZip.likes == fromFolder.likes)
            for photo in folder.photos { #expect(try zipped.photoBytes(photo) == folder.photoBytes(photo)) }
        }
    }
}
