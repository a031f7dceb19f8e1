import Foundation
import TwfeedBase

/// Every photo uploaded, by id, in the order they came, and how long a new id stays
/// usable. Kept in `EmulatorState`, behind the state's one lock.
struct MediaUploads {
    /// Why a media id cannot be used (by `POST /2/media/metadata` or a post's `media_ids`).
    enum Refusal: Equatable {
        case unknown
        case expired
        /// A media id of another user's post: every token the emulator accepts is the
        /// account's, so another user's media are those of others' posts.
        case notYours
    }

    /// What `usable` found.
    enum Lookup {
        case usable(UploadedMedia)
        case refused(Refusal)
    }

    /// The documented default: an id is usable for 86,400 s (a day).
    static let defaultExpirySeconds = 86_400

    /// `expires_after_secs` of new uploads (`EmulatorConfiguration.mediaExpirySeconds`).
    var expirySeconds = defaultExpirySeconds
    private(set) var byID: [UInt64: UploadedMedia] = [:]
    private(set) var order: [UInt64] = []

    var all: [UploadedMedia] { order.compactMap { byID[$0] } }

    /// Records an upload under `id` and drops the bytes of uploads that expired unposted.
    mutating func add(
        id: UInt64,
        format: ImageFormat,
        bytes: [UInt8],
        encoding: UploadedMedia.Encoding,
        now: Date
    ) -> UploadedMedia {
        for key in order where byID[key]?.bytes != nil && byID[key]?.postIDs.isEmpty == true && byID[key]?.isExpired(at: now) == true {
            byID[key]?.bytes = nil
        }
        let size = format.dimensions(of: bytes)
        let media = UploadedMedia(
            id: id,
            format: format,
            bytes: bytes,
            byteCount: bytes.count,
            width: size.width,
            height: size.height,
            sha256: SHA256Digest.hex(bytes),
            encoding: encoding,
            uploadedAt: now,
            expiresAt: now.addingTimeInterval(Double(expirySeconds))
        )
        byID[id] = media
        order.append(id)
        return media
    }

    /// The upload behind `id` if the account may use it now, else why not.
    func usable(_ id: UInt64, now: Date, store: TweetStore) -> Lookup {
        guard let media = byID[id] else {
            return .refused(store.mediaByID[id] == nil ? .unknown : .notYours)
        }
        return media.isExpired(at: now) ? .refused(.expired) : .usable(media)
    }

    mutating func setAltText(_ text: String, of id: UInt64) {
        byID[id]?.altText = text
        byID[id]?.altTextSets += 1
    }

    mutating func attach(_ id: UInt64, to postID: UInt64) {
        byID[id]?.postIDs.append(postID)
    }

    /// How many times the same bytes were uploaded, by SHA-256.
    var uploadCounts: [String: Int] {
        all.reduce(into: [:]) { $0[$1.sha256, default: 0] += 1 }
    }
}
