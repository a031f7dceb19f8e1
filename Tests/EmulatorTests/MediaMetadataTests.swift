import Foundation
import Testing
import TwfeedEmulator

/// `POST /2/media/metadata`: alt text for the account's own upload, set again harmlessly;
/// an id that is unknown, expired or another user's, and alt text over 1,000 characters,
/// are refused.
@Suite struct MediaMetadataTests {
    @Test func altTextIsSetAndSettingItAgainReplacesIt() throws {
        try withEmulator { emulator, client in
            let id = try client.upload(TestPhoto.png(width: 30, height: 20))
            let first = try client.send("POST", "/2/media/metadata", json: metadataJSON(id, alt: "A red <kite> & a \"blue\" sky 🪁"))
            #expect(first.status == 200, "\(first.text)")
            #expect(first.object[path: "data", "id"] as? String == id)
            #expect(first.object[path: "data", "associated_metadata", "alt_text", "text"] as? String == "A red <kite> & a \"blue\" sky 🪁")
            let second = try client.send("POST", "/2/media/metadata", json: metadataJSON(id, alt: "A kite"))
            #expect(second.status == 200)
            let upload = try #require(emulator.mediaUploads.first)
            #expect(upload.altText == "A kite" && upload.altTextSets == 2)
            #expect(emulator.requests.last?.endpoint == "mediaMetadata")
        }
    }

    @Test func thousandCharactersAreTheLimit() throws {
        try withEmulator { emulator, client in
            let id = try client.upload(TestPhoto.png(width: 30, height: 20))
            // Code points, as the documented maxLength counts: 1,000 emoji are 1,000.
            let longest = String(repeating: "🪁", count: 1_000)
            #expect(try client.send("POST", "/2/media/metadata", json: metadataJSON(id, alt: longest)).status == 200)
            let over = try client.send("POST", "/2/media/metadata", json: metadataJSON(id, alt: String(repeating: "a", count: 1_001)))
            #expect(over.status == 400)
            #expect(emulator.mediaUploads.first?.altText == longest)
        }
    }

    @Test func anUnknownExpiredOrOthersIdIsRefused() throws {
        try withEmulator { emulator, client in
            // Another user's photo: one on a seeded post of someone else's.
            let others = try #require(emulator.allTweetIDs(.home).compactMap { emulator.tweet($0) }
                .first { $0.authorID != Emulator.accountUserID && $0.media.contains { $0.type == "photo" } })
            let foreign = String(try #require(others.media.first { $0.type == "photo" }).key.dropFirst(2))
            emulator.setMediaExpiry(seconds: 60)
            let id = try client.upload(TestPhoto.png(width: 30, height: 20))
            for (target, why) in [("42", "no media with this id"), (foreign, "another user"), ("x1", "regex")] {
                let response = try client.send("POST", "/2/media/metadata", json: metadataJSON(target, alt: "alt"))
                #expect(response.status == 400, "\(target)")
                #expect(response.text.contains(why), "\(response.text)")
            }
            #expect(try client.send("POST", "/2/media/metadata", json: metadataJSON(id, alt: "in time")).status == 200)
            emulator.setClockSkew(seconds: 61)
            let expired = try client.send("POST", "/2/media/metadata", json: metadataJSON(id, alt: "too late"))
            #expect(expired.status == 400)
            #expect(expired.text.contains("expired"))
            #expect(emulator.mediaUploads.first?.altText == "in time")
        }
    }

    @Test func aBodyThatIsNotTheDocumentedShapeIsRefused() throws {
        try withEmulator { emulator, client in
            let id = try client.upload(TestPhoto.png(width: 3, height: 2))
            for body in ["not json", #"{"metadata":{"alt_text":{"text":"x"}}}"#, #"{"id":\#(id)}"#,
                         #"{"id":"\#(id)","metadata":{"alt_text":{"words":"x"}}}"#, #"{"id":"\#(id)","metadata":"x"}"#] {
                #expect(try client.send("POST", "/2/media/metadata", json: body).status == 400, "\(body)")
            }
            #expect(emulator.mediaUploads.first?.altTextSets == 0)
        }
    }
}
