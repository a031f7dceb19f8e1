/// The picture formats the API takes for a post's photo (`media_category=tweet_image`).
/// The type is read from the bytes when queued, never from the file's name, so a renamed
/// file cannot reach the API as something it is not.
package enum PhotoType: String, Sendable, CaseIterable, Codable {
    case jpeg, png, webp, gif

    /// The Content-Type the upload names and the image host answers with.
    package var mimeType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .webp: "image/webp"
        case .gif: "image/gif"
        }
    }

    package var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .png: "png"
        case .webp: "webp"
        case .gif: "gif"
        }
    }
}
