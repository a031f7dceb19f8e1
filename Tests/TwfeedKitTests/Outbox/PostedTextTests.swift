import Foundation
import Testing
@testable import TwfeedCore
@testable import TwfeedKit

/// Recognising one's own post by its text, as the API gives it back.
struct PostedTextTests {
    func tweet(_ rawJSON: String, text: String = "") -> Tweet {
        Tweet(id: TweetID(1), authorID: UserID(1), createdAt: Date(), text: text, rawJSON: rawJSON)
    }

    @Test func v2LinksAreExpandedAndTheMediaLinkDropped() {
        let raw = """
            {"id":"1","text":"fish &amp; chips https://t.co/abc at example.org https://t.co/med","entities":{"urls":[
            {"start":17,"end":36,"url":"https://t.co/abc","expanded_url":"https://example.com/x?a=1&b=2"},
            {"url":"https://t.co/bare","expanded_url":"http://example.org"},
            {"url":"https://t.co/med","expanded_url":"https://x.com/me/status/1/photo/1","media_key":"3_1"}]}}
            """.replacingOccurrences(of: "at example.org", with: "at https://t.co/bare")
        #expect(PostedText.matches(tweet(raw), typed: "fish & chips https://example.com/x?a=1&b=2 at example.org"))
        #expect(!PostedText.matches(tweet(raw), typed: "fish & chips https://example.com/x?a=1&b=2 at example.net"))
    }

    @Test func v11MediaIsListedApart() {
        let raw = """
            {"id_str":"1","full_text":"look &lt;here&gt; https://t.co/pic","entities":{"urls":[],"media":[{"url":"https://t.co/pic"}]}}
            """
        #expect(PostedText.matches(tweet(raw), typed: "look <here>"))
    }

    @Test func aLongPostIsReadFromItsNoteTweet() {
        let whole = String(repeating: "word ", count: 80) + "https://t.co/end"
        let raw = """
            {"id":"1","text":"word word…","note_tweet":{"text":"\(whole)","entities":{"urls":[{"url":"https://t.co/end","expanded_url":"https://example.com/end"}]}}}
            """
        #expect(PostedText.matches(tweet(raw), typed: String(repeating: "word ", count: 80) + "https://example.com/end"))
        #expect(!PostedText.matches(tweet(raw), typed: "word word…"))
    }

    @Test func aTweetWithoutItsJSONIsComparedByItsText() {
        #expect(PostedText.matches(tweet("{}", text: "a & b"), typed: " a & b\n"))
        #expect(!PostedText.matches(tweet("{}", text: "a & b"), typed: "a & c"))
    }
}
