import Foundation

/// `POST /2/media/upload` and `POST /2/media/metadata`: a photo uploaded in one request,
/// and its alt text. (X's chunked upload, for videos and larger files, is not emulated.)
extension V2Routes {
    /// The largest photo the API takes: 5 MB, as its upload guide says, read as X's own
    /// error wording has it ("must be <= 5242880 bytes").
    static let maxPhotoBytes = 5 * 1024 * 1024
    /// The longest alt text: 1,000 characters, counted as JSON Schema's `maxLength` counts
    /// (Unicode code points), the documented limit read literally.
    static let maxAltTextLength = 1_000
    /// The `media_category` values of the one-request upload (its OpenAPI enum); the
    /// emulator takes the image ones.
    static let imageCategories: Set<String> = ["tweet_image", "dm_image"]
    static let mediaCategories: Set<String> = imageCategories.union(["subtitles"])
    /// The `media_type` values of the one-request upload (its OpenAPI enum). `image/gif` is
    /// not among them, literally: a GIF is taken by its bytes, not by a declared type.
    static let mediaTypes: Set<String> = [
        "text/srt", "text/vtt", "image/jpeg", "image/bmp", "image/png", "image/webp", "image/pjpeg", "image/tiff",
    ]

    // MARK: POST /2/media/upload

    /// `multipart/form-data` with a `media` part (raw, or base64 with
    /// `Content-Transfer-Encoding: base64`) and a `media_category` field, or JSON
    /// `{"media": BASE64, "media_category", "media_type"}`. Neither body is part of the
    /// OAuth signature. 200 with the new id, `media_key`, `size`, `expires_after_secs` and
    /// `image` (type, width and height read from the bytes); 400 for a body that is not a
    /// whole form, a missing or unknown field, more than 5 MB, or bytes that are not a
    /// JPEG, PNG, WebP or GIF.
    static func uploadMedia(_ context: RequestContext, state: inout EmulatorState) -> EmulatorResponse {
        let request = context.request
        let bytes: [UInt8]
        let category: String?
        let declaredType: String?
        let encoding: UploadedMedia.Encoding
        if let boundary = MultipartForm.boundary(contentType: request.header("content-type")) {
            guard let form = MultipartForm(request.body, boundary: boundary) else {
                return invalidBody("The multipart/form-data body is not a whole form (it must end with the closing boundary).")
            }
            guard let media = form.part("media") else { return missing("media") }
            (bytes, category, declaredType, encoding) = (media.bytes, form.part("media_category")?.text, form.part("media_type")?.text, .multipart)
        } else if let body = JSONBody.object(request.body) {
            guard let text = body["media"] as? String else { return missing("media") }
            guard let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else {
                return invalid("media", value: String(text.prefix(40)), message: "$.media: is not base64")
            }
            (bytes, category, declaredType, encoding) = (Array(data), body["media_category"] as? String, body["media_type"] as? String, .json)
        } else {
            return invalidBody("The request body is neither multipart/form-data nor a JSON object.")
        }
        guard let category else { return missing("media_category") }
        guard mediaCategories.contains(category) else {
            return invalid(
                "media_category",
                value: category,
                message: "$.media_category: does not have a value in the enumeration [\(mediaCategories.sorted().joined(separator: ", "))]"
            )
        }
        if let declaredType, !mediaTypes.contains(declaredType) {
            return invalid(
                "media_type",
                value: declaredType,
                message: "$.media_type: does not have a value in the enumeration [\(mediaTypes.sorted().joined(separator: ", "))]"
            )
        }
        guard imageCategories.contains(category) else {
            return invalidBody("The emulator takes images only (media_category tweet_image or dm_image).")
        }
        guard !bytes.isEmpty else { return invalid("media", value: "", message: "$.media: must not be empty") }
        guard bytes.count <= maxPhotoBytes else {
            return invalidBody("Image file size must be <= \(maxPhotoBytes) bytes (this one has \(bytes.count)).")
        }
        guard let format = ImageFormat(sniffing: bytes) else {
            return invalidBody("The media type is not supported: the bytes are not a JPEG, PNG, WebP or GIF image.")
        }
        let media = state.uploads.add(
            id: state.store.nextUploadedMediaID(),
            format: format,
            bytes: bytes,
            encoding: encoding,
            now: context.now
        )
        var response = EmulatorResponse.json(
            200,
            .object([
                (
                    "data",
                    .object([
                        ("id", .string(String(media.id))), ("media_key", .string(media.key)), ("size", .int(media.byteCount)),
                        ("expires_after_secs", .int(state.uploads.expirySeconds)),
                        (
                            "image",
                            .object([("image_type", .string(format.mimeType)), ("w", .int(media.width)), ("h", .int(media.height))])
                        ),
                    ])
                )
            ])
        )
        response.served.performed = .mediaUpload
        return response
    }

    // MARK: POST /2/media/metadata

    /// `{"id": MEDIA_ID, "metadata": {"alt_text": {"text": ALT}}}` → 200 `{"data": {"id",
    /// "associated_metadata": {"alt_text": {"text"}}}}`. Setting it again replaces it. 400
    /// for an id that is not the account's usable upload (unknown, expired, another
    /// user's) or alt text over 1,000 characters. Alt text set after a post was made does
    /// not change that post (it took the photo's alt text as it was).
    static func mediaMetadata(_ context: RequestContext, state: inout EmulatorState) -> EmulatorResponse {
        guard let body = JSONBody.object(context.request.body) else {
            return invalidBody("The request body is not a JSON object.")
        }
        guard let idText = body["id"] as? String else { return missing("id") }
        guard isID(idText), let id = UInt64(idText) else {
            return invalid("id", value: idText, message: "$.id: does not match the regex pattern ^[0-9]{1,19}$")
        }
        var alt: String?
        if let metadata = body["metadata"] {
            guard let object = metadata as? [String: Any] else {
                return invalid("metadata", value: "\(metadata)", message: "$.metadata: is not an object")
            }
            if let altObject = object["alt_text"] {
                guard let text = (altObject as? [String: Any])?["text"] as? String else {
                    return missing("metadata.alt_text.text")
                }
                guard text.unicodeScalars.count <= maxAltTextLength else {
                    return invalid(
                        "metadata.alt_text.text",
                        value: String(text.prefix(40)),
                        message: "$.metadata.alt_text.text: must be at most \(maxAltTextLength) characters"
                    )
                }
                alt = text
            }
        }
        if case .refused(let refusal) = state.uploads.usable(id, now: context.now, store: state.store) {
            return unusableMedia(idText, refusal, parameter: "id")
        }
        if let alt { state.uploads.setAltText(alt, of: id) }
        let associated: [(String, EmulatorJSON)] = alt.map { [("alt_text", .object([("text", .string($0))]))] } ?? []
        return .json(
            200,
            .object([("data", .object([("id", .string(idText)), ("associated_metadata", .object(associated))]))])
        )
    }

    // MARK: Shared refusals

    /// Whether `text` is an id as the API writes them: 1 to 19 digits.
    static func isID(_ text: String) -> Bool {
        (1...19).contains(text.utf8.count) && text.utf8.allSatisfy { (48...57).contains($0) }
    }

    /// The 400 for a media id the account cannot use, naming why.
    static func unusableMedia(_ id: String, _ refusal: MediaUploads.Refusal, parameter: String) -> EmulatorResponse {
        let why =
            switch refusal {
            case .unknown: "no media with this id was uploaded"
            case .expired: "the media id has expired (expires_after_secs)"
            case .notYours: "the media belongs to another user"
            }
        return invalid(parameter, value: id, message: "Your media IDs are invalid. [\(id)]: \(why).")
    }

    private static func missing(_ parameter: String) -> EmulatorResponse {
        invalid(parameter, value: "", message: "$.\(parameter): is missing but it is required")
    }

    private static func invalid(_ parameter: String, value: String, message: String) -> EmulatorResponse {
        ErrorBody.invalidRequest([.init(parameter: parameter, value: value, message: message)])
    }

    private static func invalidBody(_ detail: String) -> EmulatorResponse {
        ErrorBody.problem(400, title: "Invalid Request", detail: detail, type: "https://api.twitter.com/2/problems/invalid-request")
    }
}
