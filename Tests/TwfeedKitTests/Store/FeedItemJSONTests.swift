import Foundation
import Testing
import TwfeedBase
@testable import TwfeedKit
@testable import TwfeedCore
@testable import TwfeedStore

/// `feed --json` prints `FeedItem.appendJSON`, written byte by byte for speed; the
/// contract's object is `FeedItem.json`. They must never differ.
@Suite struct FeedItemJSONTests {
    static let items: [FeedItem] = [
        FeedItem(tweet: Tweet(id: TweetID(1_500_000_000_000_000_001), authorID: UserID(42),
                              createdAt: Date(timeIntervalSince1970: 1_764_000_000.75), text: "plain text"),
                 feeds: [.home], author: Author(id: UserID(42), username: "ada", name: "Ada Lovelace", profileImageURL: nil),
                 avatarPath: "/cache/ab/cd/abcd.jpg"),
        FeedItem(tweet: Tweet(id: TweetID(7), authorID: UserID(9), createdAt: Date(timeIntervalSince1970: -5),
                              text: "quote \" backslash \\ newline \n tab \t bell \u{07} <b>&amp;</b> café 🇫🇷 \u{202E}",
                              inReplyToID: TweetID(6), retweetOfID: TweetID(5), quotedID: TweetID(4)),
                 feeds: [.home, .mentions, .retweets], author: nil, avatarPath: nil),
        FeedItem(tweet: Tweet(id: TweetID(Int64.max), authorID: UserID(1), createdAt: Date(timeIntervalSince1970: 0), text: ""),
                 feeds: [], author: Author(id: UserID(1), username: "x\"y", name: "", profileImageURL: "https://e/x.png"),
                 avatarPath: nil),
    ]

    @Test(arguments: items) func bytesMatchTheObject(_ item: FeedItem) throws {
        var bytes: [UInt8] = []
        item.appendJSON(to: &bytes)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text == item.json.serialized)
        // And it is JSON a standard parser reads back to the same text.
        let object = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        #expect(object["text"] as? String == item.tweet.text)
    }

    @Test func feedsComeInTheContractsOrderEachOnce() {
        #expect(Feed.list("retweets,home,home") == [.home, .retweets])
        #expect(Feed.list(nil) == [])
        #expect(Feed.list("bogus,mentions") == [.mentions])
    }
}
