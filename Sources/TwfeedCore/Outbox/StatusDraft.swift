import Foundation

/// One photo as it is queued: its bytes are copied into the outbox in the same
/// transaction as the text, so the file may go away after `twfeed post` returns.
package struct PhotoDraft: Sendable, Equatable {
    /// The file's name as the user gave it (its last path component): what `outbox`
    /// shows and the upload names.
    package var fileName: String
    package var type: PhotoType
    package var bytes: Data
    /// What a screen reader says of it, set with `POST /2/media/metadata`.
    package var alt: String?

    package init(fileName: String, type: PhotoType, bytes: Data, alt: String?) {
        self.fileName = fileName
        self.type = type
        self.bytes = bytes
        self.alt = alt
    }
}

/// A post as it is queued: checked before (PostValidator, the photo checks), stored
/// whole or not at all.
package struct StatusDraft: Sendable, Equatable {
    package var text: String
    package var photos: [PhotoDraft]
    package var replyTo: TweetID?
    /// Not sent before this time (`--at`); the expiry counts from it.
    package var notBefore: Date?

    package init(text: String, photos: [PhotoDraft] = [], replyTo: TweetID? = nil, notBefore: Date? = nil) {
        self.text = text
        self.photos = photos
        self.replyTo = replyTo
        self.notBefore = notBefore
    }
}
