import Foundation
import TwfeedCore

/// What the outbox sends in v2: photos, their alt text, posts and deletions.
extension V2Client {
    /// How a photo goes to `POST /2/media/upload`: the API takes either.
    enum UploadEncoding: Sendable {
        /// `multipart/form-data`: the part `media` (the bytes, with their file name and
        /// type) and the field `media_category`. The bytes go as they are.
        case multipart
        /// A JSON body `{"media": BASE64, "media_category", "media_type"}`: a third larger.
        case json
    }

    /// The one switch: multipart, as X's guide prefers for binary media.
    static let uploadEncoding = UploadEncoding.multipart

    /// The category every twfeed upload is: a photo of a post.
    static let mediaCategory = "tweet_image"

    func post(text: String, replyTo: TweetID?, mediaIDs: [String]) async throws -> TweetID {
        var object: [String: JSONValue] = ["text": .string(text)]
        if let replyTo { object["reply"] = .object(["in_reply_to_tweet_id": .string(replyTo.description)]) }
        if !mediaIDs.isEmpty { object["media"] = .object(["media_ids": .array(mediaIDs.map(JSONValue.string))]) }
        let (body, rateLimit, _) = try await requester.post("/2/tweets", json: JSONValue.object(object).serialized)
        guard let id = body["data"]?["id"]?.string.flatMap(TweetID.init) else {
            throw APIError.malformed("no id in the answer to POST /2/tweets", status: 201, rateLimit: rateLimit)
        }
        return id
    }

    func uploadMedia(_ bytes: Data, type mime: String, fileName: String) async throws -> (mediaID: String, expiresAfter: Double?) {
        let answer: JSONValue
        let rateLimit: RateLimit?
        switch Self.uploadEncoding {
        case .multipart:
            let body = MultipartBody(parts: [
                .file("media", fileName: fileName, contentType: mime, bytes: bytes),
                .field("media_category", Self.mediaCategory),
            ])
            (answer, rateLimit, _) = try await requester.post("/2/media/upload", multipart: body)
        case .json:
            let object: JSONValue = .object([
                "media": .string(bytes.base64EncodedString()), "media_category": .string(Self.mediaCategory),
                "media_type": .string(mime),
            ])
            (answer, rateLimit, _) = try await requester.post("/2/media/upload", json: object.serialized)
        }
        return try Self.uploaded(answer, rateLimit: rateLimit)
    }

    /// The media id and lifetime of an upload's answer: `data.id` and
    /// `data.expires_after_secs` (the v1.1-style `media_id_string` is read too).
    static func uploaded(_ body: JSONValue, rateLimit: RateLimit?) throws -> (mediaID: String, expiresAfter: Double?) {
        let data = body["data"] ?? body
        guard let id = data["id"]?.string ?? data["media_id_string"]?.string, !id.isEmpty else {
            throw APIError.malformed("no id in the answer to POST /2/media/upload", status: 200, rateLimit: rateLimit)
        }
        let seconds = data["expires_after_secs"]?.int ?? body["expires_after_secs"]?.int
        return (id, seconds.map(Double.init))
    }

    func setAltText(mediaID: String, text: String) async throws {
        let object: JSONValue = .object([
            "id": .string(mediaID), "metadata": .object(["alt_text": .object(["text": .string(text)])]),
        ])
        _ = try await requester.post("/2/media/metadata", json: object.serialized)
    }

    /// `DELETE /2/tweets/:id`: `{"data": {"deleted": true}}`. An answer that says
    /// `false` deleted nothing now (the post may be gone already, or not deletable):
    /// `APIError.notDeleted`, which the outbox settles by looking the post up.
    func deleteTweet(_ id: TweetID) async throws {
        let (body, rateLimit, response) = try await requester.delete("/2/tweets/\(id)")
        if body["data"]?["deleted"] == .bool(false) {
            throw APIError.notDeleted(id, status: response.status, rateLimit: rateLimit)
        }
    }
}

extension APIError {
    /// A 2xx that says `"deleted": false`.
    static func notDeleted(_ id: TweetID, status: Int, rateLimit: RateLimit?) -> APIError {
        APIError(kind: .rejected, status: status, message: "the API did not delete post \(id) (\"deleted\": false)", rateLimit: rateLimit)
    }

    /// Whether this is a deletion's success answer saying it deleted nothing
    /// (`notDeleted`): the only refusal that comes with a 2xx.
    package var isNotDeleted: Bool { (200..<300).contains(status) && kind == .rejected }
}
