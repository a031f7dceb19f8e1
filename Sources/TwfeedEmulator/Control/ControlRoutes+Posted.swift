import Foundation
import TwfeedBase

/// `GET /_emulator/posted` and `POST /_emulator/media`: what clients posted, uploaded and
/// deleted, for tests that run the daemon as a subprocess, and the media settings.
extension ControlRoutes {
    /// `GET /_emulator/posted` → `{"posts": [...], "uploads": [...], "uploadCounts": {...},
    /// "deletions": [...]}` (the shape is in docs/EMULATOR.md, "Photos, threads and deletions").
    static func posted(_ core: EmulatorCore) -> EmulatorResponse {
        core.state.withLock { state in
            let base = "http://" + state.authority
            let posts: [EmulatorJSON] = state.posted.map { status in
                let media = UInt64(status.id).flatMap { state.store.tweets[$0]?.media } ?? []
                let photos: [EmulatorJSON] = media.map { item in
                    let upload = state.uploads.byID[item.id]
                    return .object([
                        ("mediaId", .string(String(item.id))), ("mediaKey", .string(item.key)),
                        ("sha256", .stringOrNull(upload?.sha256)), ("bytes", .int(upload?.byteCount ?? 0)),
                        ("type", .stringOrNull(upload?.format.mimeType)), ("width", .int(item.width)), ("height", .int(item.height)),
                        ("altText", .stringOrNull(item.altText)), ("url", .string(base + item.path)),
                    ])
                }
                return .object([
                    ("id", .string(status.id)), ("text", .string(status.text)), ("dialect", .string(status.dialect.rawValue)),
                    ("inReplyToId", .stringOrNull(status.inReplyToID)),
                    ("createdAt", .string(Timestamp.iso8601Milliseconds(status.createdAt))),
                    ("deleted", .bool(status.deletedAt != nil)),
                    ("deletedAt", .stringOrNull(status.deletedAt.map(Timestamp.iso8601Milliseconds))),
                    ("photos", .array(photos)),
                ])
            }
            let now = state.now
            let uploads: [EmulatorJSON] = state.uploads.all.map { media in
                .object([
                    ("mediaId", .string(String(media.id))), ("mediaKey", .string(media.key)), ("sha256", .string(media.sha256)),
                    ("bytes", .int(media.byteCount)), ("type", .string(media.format.mimeType)),
                    ("width", .int(media.width)), ("height", .int(media.height)), ("encoding", .string(media.encoding.rawValue)),
                    ("altText", .stringOrNull(media.altText)), ("altTextSets", .int(media.altTextSets)),
                    ("uploadedAt", .string(Timestamp.iso8601Milliseconds(media.uploadedAt))),
                    ("expiresAt", .string(Timestamp.iso8601Milliseconds(media.expiresAt))),
                    ("expired", .bool(media.isExpired(at: now))),
                    ("postIds", .array(media.postIDs.map { .string(String($0)) })),
                ])
            }
            let deletions: [EmulatorJSON] = state.deletions.map { deletion in
                .object([
                    ("id", .string(deletion.id)), ("dialect", .string(deletion.dialect.rawValue)),
                    ("at", .string(Timestamp.iso8601Milliseconds(deletion.at))),
                ])
            }
            return .json(
                200,
                .object([
                    ("posts", .array(posts)), ("uploads", .array(uploads)),
                    ("uploadCounts", .object(state.uploads.uploadCounts.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) })),
                    ("deletions", .array(deletions)),
                ])
            )
        }
    }

    /// `POST /_emulator/media {"expirySeconds": N, "goneDeletion": "deleted-false|not-found"}`
    /// (either or both) → the settings; `GET /_emulator/media` reads them.
    static func media(_ request: EmulatorRequest?, core: EmulatorCore) -> EmulatorResponse {
        let readings = EmulatorGoneDeletion.allCases.map(\.rawValue).joined(separator: "|")
        if let request {
            let usage = "expected {\"expirySeconds\":0 or more,\"goneDeletion\":\"\(readings)\"}"
            guard let body = JSONBody.object(request.body), !body.isEmpty,
                Set(body.keys).isSubset(of: ["expirySeconds", "goneDeletion"])
            else { return error(400, usage) }
            var seconds: Int?
            if let value = body["expirySeconds"] {
                guard let number = value as? NSNumber, String(cString: number.objCType) != "c", let whole = Int(exactly: number.doubleValue),
                    whole >= 0
                else { return error(400, usage) }
                seconds = whole
            }
            var gone: EmulatorGoneDeletion?
            if let value = body["goneDeletion"] {
                guard let reading = (value as? String).flatMap(EmulatorGoneDeletion.init(rawValue:)) else { return error(400, usage) }
                gone = reading
            }
            core.state.withLock { state in
                if let seconds { state.uploads.expirySeconds = seconds }
                if let gone { state.goneDeletion = gone }
            }
        }
        let (seconds, gone) = core.state.withLock { ($0.uploads.expirySeconds, $0.goneDeletion) }
        return .json(200, .object([("expirySeconds", .int(seconds)), ("goneDeletion", .string(gone.rawValue))]))
    }
}
