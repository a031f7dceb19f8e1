import Foundation

/// A queued photo without its bytes (`AppDatabase.photoBytes` reads those), with the
/// steps of its sending as recorded: each is committed before the next starts, so a
/// crash or a lost answer never uploads again a photo whose media id is still valid.
package struct OutboxPhoto: Sendable, Equatable {
    /// Its place among the post's photos, from 0: the order they are attached in.
    package var position: Int
    package var fileName: String
    package var type: PhotoType
    package var byteCount: Int
    package var alt: String?
    /// The id `POST /2/media/upload` answered, once recorded.
    package var mediaID: String?
    /// When that id stops being usable (`expires_after_secs` after the upload); nil when
    /// the answer did not say.
    package var mediaExpiresAt: Date?
    /// When its alt text was set on `mediaID` (nil: not yet, or no alt text).
    package var altSetAt: Date?

    package init(
        position: Int,
        fileName: String,
        type: PhotoType,
        byteCount: Int,
        alt: String?,
        mediaID: String? = nil,
        mediaExpiresAt: Date? = nil,
        altSetAt: Date? = nil
    ) {
        self.position = position
        self.fileName = fileName
        self.type = type
        self.byteCount = byteCount
        self.alt = alt
        self.mediaID = mediaID
        self.mediaExpiresAt = mediaExpiresAt
        self.altSetAt = altSetAt
    }

    /// INTERFACE.md's `outbox --json` photo.
    package var json: JSONValue {
        .object([
            "file": .string(fileName),
            "alt": alt.map(JSONValue.string) ?? .null,
            "mediaId": mediaID.map(JSONValue.string) ?? .null,
        ])
    }
}

/// Where a queued status stands in a thread written in one go (`twfeed thread`).
package struct OutboxThread: Sendable, Equatable {
    /// The thread's id: its first part's outbox id.
    package var id: Int64
    /// From 1; part N+1 is sent as a reply to part N once N's id is known.
    package var part: Int
    package var parts: Int

    package init(id: Int64, part: Int, parts: Int) {
        self.id = id
        self.part = part
        self.parts = parts
    }

    package var json: JSONValue {
        .object(["id": .string(String(id)), "part": .number(String(part)), "parts": .number(String(parts))])
    }
}
