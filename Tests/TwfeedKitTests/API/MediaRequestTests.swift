import Foundation
import Synchronization
import Testing
@testable import TwfeedCore
@testable import TwfeedKit
import TwfeedTesting

/// What the clients send for the outbox's second floor: a photo's upload (multipart, the
/// bytes as they are), its alt text, a post with photos replying to another, a deletion;
/// and what v1.1 refuses (its upload is retired).
struct MediaRequestTests {
    final class Seen: Sendable {
        let requests = Mutex<[APIRequest]>([])
        var all: [APIRequest] { requests.withLock { $0 } }
    }

    static func client(_ dialect: TwfeedConfig.Dialect, answering body: String, seen: Seen) -> any TwitterAPI {
        let transport = ObservedTransport(inner: CannedTransport(body: Array(body.utf8))) { request in
            seen.requests.withLock { $0.append(request) }
        }
        return PostParsingTests.client(dialect, transport: transport)
    }

    static func header(_ request: APIRequest, _ name: String) -> String? {
        request.headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    @Test func aPhotoIsUploadedAsMultipartWithItsBytesUntouched() async throws {
        let seen = Seen()
        let api = Self.client(
            .v2,
            answering: #"{"data":{"id":"1880000000000000001","media_key":"3_1880000000000000001","size":6,"expires_after_secs":86400,"image":{"image_type":"image/png","w":1,"h":1}}}"#,
            seen: seen
        )
        // Every byte value, CR LF and a would-be boundary line among them.
        let bytes = Data((0...255).map(UInt8.init) + Array("\r\n--twfeed-\r\n".utf8))
        let answer = try await api.uploadMedia(bytes, type: "image/png", fileName: "map \"1\".png")
        #expect(answer.mediaID == "1880000000000000001")
        #expect(answer.expiresAfter == 86_400)

        let request = try #require(seen.all.first)
        #expect(request.method == .post)
        #expect(request.url == "http://127.0.0.1:1/2/media/upload")
        let type = try #require(Self.header(request, "Content-Type"))
        #expect(type.hasPrefix("multipart/form-data; boundary="))
        let boundary = String(type.dropFirst("multipart/form-data; boundary=".count))
        let body = Data(request.body)
        let head = Data(
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"media\"; filename=\"map %221%22.png\"\r\nContent-Type: image/png\r\n\r\n".utf8
        )
        #expect(body.starts(with: head))
        #expect(body.subdata(in: head.count..<head.count + bytes.count) == bytes, "the photo's bytes go as they are")
        let tail = String(decoding: body.suffix(from: head.count + bytes.count), as: UTF8.self)
        #expect(tail == "\r\n--\(boundary)\r\nContent-Disposition: form-data; name=\"media_category\"\r\n\r\ntweet_image\r\n--\(boundary)--\r\n")
        // OAuth 1.0a signs no multipart body: only oauth_* parameters in the header.
        let authorization = try #require(Self.header(request, "Authorization"))
        #expect(authorization.hasPrefix("OAuth ") && !authorization.contains("media"))
    }

    @Test func theBoundaryNeverOccursInThePhoto() {
        let body = MultipartBody(parts: [.file("media", fileName: "a.png", contentType: "image/png", bytes: Data("xx--fixed--xx".utf8))], boundary: "fixed")
        #expect(body.boundary != "fixed")
        // The delimiter occurs twice (the part's, the closing one), never inside the photo.
        let text = String(decoding: body.bytes, as: UTF8.self)
        #expect(text.components(separatedBy: "--\(body.boundary)").count == 3)
        #expect(text.contains("xx--fixed--xx"))
    }

    @Test func anUploadAnswerWithoutAnIDIsMalformed() async throws {
        let api = Self.client(.v2, answering: #"{"data":{"media_key":"3_1"}}"#, seen: Seen())
        await #expect(throws: APIError.self) { _ = try await api.uploadMedia(Data([1]), type: "image/png", fileName: "a.png") }
    }

    @Test func altTextAndAPostWithPhotosReplyingToAnotherAreJSON() async throws {
        let seen = Seen()
        let api = Self.client(.v2, answering: #"{"data":{"id":"1880000000000000009","text":"hi"}}"#, seen: seen)
        try await api.setAltText(mediaID: "77", text: "A map \"of\" the bay")
        let id = try await api.post(text: "hi", replyTo: TweetID(1_880_000_000_000_000_005), mediaIDs: ["77", "78"])
        #expect(id == TweetID(1_880_000_000_000_000_009))

        let alt = try JSONValue.parse(seen.all[0].body)
        #expect(seen.all[0].url.hasSuffix("/2/media/metadata"))
        #expect(alt["id"]?.string == "77")
        #expect(alt["metadata"]?["alt_text"]?["text"]?.string == "A map \"of\" the bay")
        let post = try JSONValue.parse(seen.all[1].body)
        #expect(seen.all[1].url.hasSuffix("/2/tweets"))
        #expect(post["media"]?["media_ids"]?.array?.compactMap(\.string) == ["77", "78"])
        #expect(post["reply"]?["in_reply_to_tweet_id"]?.string == "1880000000000000005")
        // Text alone sends no `media` (an empty list is a 400 to the API).
        _ = try await api.post(text: "plain", replyTo: nil)
        #expect(try JSONValue.parse(seen.all[2].body)["media"] == nil)
    }

    @Test func v2DeletesWithDELETEAndReadsTheAnswer() async throws {
        let seen = Seen()
        try await Self.client(.v2, answering: #"{"data":{"deleted":true}}"#, seen: seen).deleteTweet(TweetID(1_880_000_000_000_000_005))
        #expect(seen.all.map(\.method) == [.delete])
        #expect(seen.all.first?.url == "http://127.0.0.1:1/2/tweets/1880000000000000005")
        await #expect(throws: APIError.self) {
            try await Self.client(.v2, answering: #"{"data":{"deleted":false}}"#, seen: Seen()).deleteTweet(TweetID(5))
        }
    }

    @Test func v11DeletesThroughDestroyAndRefusesUploadsWithoutARequest() async throws {
        let seen = Seen()
        let api = Self.client(.v1_1, answering: #"{"id_str":"1880000000000000005"}"#, seen: seen)
        try await api.deleteTweet(TweetID(1_880_000_000_000_000_005))
        #expect(seen.all.map(\.url) == ["http://127.0.0.1:1/1.1/statuses/destroy/1880000000000000005.json"])
        #expect(seen.all.first?.method == .post)
        do {
            _ = try await api.uploadMedia(Data([1, 2]), type: "image/png", fileName: "a.png")
            Issue.record("v1.1 uploaded")
        } catch let error as APIError {
            #expect(error.kind == .rejected && !error.mayHaveArrived)
            #expect(error.message.contains("api.dialect"))
        }
        #expect(seen.all.count == 1, "no upload request went out")
    }
}
