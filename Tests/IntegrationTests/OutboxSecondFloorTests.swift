import Foundation
import Testing
import TwfeedBase
import TwfeedBilling
import TwfeedEmulator
@testable import TwfeedKit
import TwfeedTesting
@testable import TwfeedCore
@testable import TwfeedStore

/// The outbox's second floor against the emulator: photos byte-identical with their alt
/// texts, a thread through SIGKILLs, a time to send, a deletion; each exactly once.
@Suite(.serialized, .tags(.integration))
struct OutboxSecondFloorTests {
    /// A photo file of `type` with `size` bytes no other call returns: a header that says
    /// its type and size, then random bytes (so byte identity means something).
    static func photo(_ type: PhotoType, width: Int = 64, height: Int = 48, size: Int = 3_000) -> Data {
        func be32(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8((value >> $0) & 0xFF) } }
        var header: [UInt8]
        switch type {
        case .png:
            header = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + be32(width) + be32(height)
            header += [8, 2, 0, 0, 0, 0, 0, 0, 0]
        default:
            header = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
            header += [0xFF, 0xC0, 0x00, 0x11, 0x08, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF)]
            header += [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
        }
        var generator = SystemRandomNumberGenerator()
        let noise = (0 ..< max(0, size - header.count - 2)).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }
        return Data(header + noise + (type == .jpeg ? [0xFF, 0xD9] : [0, 0]))
    }

    static func sha256(_ data: Data) -> String {
        SHA256Digest.hash(Array(data)).map { String(format: "%02x", $0) }.joined()
    }

    /// Flushes, moving the clock (and the server's, which follows it) to each pause,
    /// until nothing is on its way.
    static func flushUntilSettled(_ daemon: Daemon, _ world: TestWorld, _ clock: ManualClock, rounds: Int = 40) async throws {
        for _ in 0 ..< rounds {
            let pause = try await daemon.flusher!.flush()
            if try await daemon.database.outboxItems().allSatisfy({ !$0.state.isUnderway }) { return }
            guard case .until(let next) = pause else { return }
            clock.advance(to: max(next, clock.now().addingTimeInterval(1)))
            world.serverFollows(clock)
        }
    }

    @Test func aPostWithTwoPhotosGoesOutOnceByteIdenticalWithItsAltTexts() async throws {
        let world = try TestWorld(tweets: 5)
        let clock = ManualClock(now: Date())
        let daemon = try world.daemon(clock: clock)
        let harbour = Self.photo(.png), map = Self.photo(.jpeg)
        let item = try await daemon.database.enqueue(
            StatusDraft(
                text: "two photos & their words",
                photos: [
                    PhotoDraft(fileName: "harbour.png", type: .png, bytes: harbour, alt: "A harbour at dawn"),
                    PhotoDraft(fileName: "map.jpg", type: .jpeg, bytes: map, alt: "A map of the bay"),
                ]),
            now: clock.now())
        try await Self.flushUntilSettled(daemon, world, clock)

        let sent = try #require(try await daemon.database.outboxItem(item.id))
        #expect(sent.state == .sent)
        let posted = world.emulator.postedStatuses
        #expect(posted.map(\.text) == ["two photos & their words"])
        let uploads = world.emulator.mediaUploads
        #expect(uploads.map(\.sha256) == [Self.sha256(harbour), Self.sha256(map)], "both photos byte-identical, in order")
        #expect(uploads.map(\.altText) == ["A harbour at dawn", "A map of the bay"])
        #expect(posted.first?.mediaIDs == uploads.map(\.id))
        #expect(sent.sentTweetID?.description == posted.first?.id)

        try await Self.expectLedgerEqualsTheBill(daemon, world, counting: [(.mediaUpload, .mediaUpload, 2), (.postCreate, .postCreate, 1)])

        // The daemon reads its own post back: both photos, their alt texts, their bytes.
        let api = TwitterAPIFactory.make(config: try world.config, credentials: try Credentials.load(from: world.credentialsPath),
                                         transport: CurlTransport(), clock: clock)
        let lookup = try await api.tweets(ids: [try #require(sent.sentTweetID)])
        let media = try #require(lookup.page.tweets.first?.media)
        #expect(media.map(\.altText) == ["A harbour at dawn", "A map of the bay"])
        var served: [Data] = []
        for photo in media {
            let response = try await CurlTransport().send(APIRequest(url: try #require(photo.imageURL)))
            served.append(Data(response.body))
        }
        #expect(served == [harbour, map], "served back byte for byte")
    }

    /// A 10-part thread with a photo on each part, through 5 SIGKILLs of the real daemon
    /// while it sends: each part posted once, in order, each replying to the one before;
    /// no photo uploaded again once its id was recorded. v1.1 (no uploads): text alone.
    @Test(arguments: ["v2", "v1.1"])
    func aTenPartThreadWithPhotosSurvivesFiveKills(dialect: String) async throws {
        let world = try TestWorld(dialect: dialect, tweets: 5)
        let withPhotos = dialect == "v2"
        world.emulator.setDuplicateWindow(seconds: 0)
        for endpoint in ["post", "mediaUpload", "mediaMetadata", "ownPosts"] { world.emulator.setRateLimit(10_000, for: endpoint) }
        try world.writeConfig(["outbox": .object(["flushIntervalSeconds": .number("1")])])
        let database = try AppDatabase.open(path: world.databasePath)
        let photos = (1 ... 10).map { Self.photo($0.isMultiple(of: 2) ? .png : .jpeg, size: 2_000 + $0) }
        let parts = (1 ... 10).map { part in
            StatusDraft(
                text: "thread part \(part) of 10",
                photos: withPhotos
                    ? [PhotoDraft(fileName: "p\(part).img", type: part.isMultiple(of: 2) ? .png : .jpeg, bytes: photos[part - 1], alt: "photo \(part)")]
                    : [])
        }
        let queued = try await database.enqueueThread(parts, now: Date())
        // Slow answers widen the windows between a step's request and its record. The
        // server has done the step when its answer starts to wait, so a kill a moment
        // after a step lands inside that window; the window is wide (a second or two)
        // because the test's own reaction is slow on a loaded machine: at 0.5 s a v1.1
        // run once had all ten parts out before its fifth kill.
        if withPhotos { world.emulator.inject(.slow(seconds: 1), times: 200, endpoint: .mediaUpload) }
        world.emulator.inject(.slow(seconds: withPhotos ? 1 : 2), times: 200, endpoint: .post)
        var generator = SystemRandomNumberGenerator()
        var kills = 0
        // Every step the server took: each kill comes just after one, while sending.
        let steps = { world.emulator.postedStatuses.count + world.emulator.mediaUploads.reduce(0) { $0 + 1 + $1.altTextSets } }
        for round in 0 ..< 5 {
            let before = steps()
            let process = try Binary.start(["run", "--config", world.configPath], logFile: "\(world.folder)/kill\(round).log")
            #expect(await eventually(safetyNet: .seconds(60)) { steps() > before })
            try await Task.sleep(for: .milliseconds(Int.random(in: 0 ... 100, using: &generator)))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            kills += 1
        }
        let sentDuringKills = world.emulator.postedStatuses.count
        let final = try Binary.start(["run", "--config", world.configPath], logFile: "\(world.folder)/final.log")
        defer { final.terminate(); final.waitUntilExit() }
        #expect(try await eventually { try await database.threadParts(queued[0].id).allSatisfy { $0.state == .sent } })

        let posted = world.emulator.postedStatuses
        #expect(posted.map(\.text) == parts.map(\.text), "each part once, in order")
        for index in posted.indices.dropFirst() {
            #expect(posted[index].inReplyToID == posted[index - 1].id, "part \(index + 1) replies to part \(index)")
        }
        let uploads = world.emulator.mediaUploads
        for (index, bytes) in photos.enumerated() where withPhotos {
            let same = uploads.filter { $0.sha256 == Self.sha256(bytes) }
            let attached = same.filter { !$0.postIDs.isEmpty }
            #expect(attached.count == 1 && attached.first?.postIDs == [posted[index].id], "photo \(index + 1) attached once, to its part")
            // Only an upload whose answer a kill lost is made again: never one recorded.
            #expect(same.count <= 1 + kills)
            #expect(attached.first?.id == same.last?.id, "no upload of photo \(index + 1) after the one recorded")
            #expect(attached.first?.altText == "photo \(index + 1)")
        }
        #expect(kills == 5)
        #expect(sentDuringKills < parts.count, "the kills came while the thread was being sent")
        let check = try database.inspect { try String.fetchOne($0, sql: "PRAGMA integrity_check") }
        #expect(check == "ok")
    }

    @Test(arguments: ["v2", "v1.1"])
    func aStatusForNinetySecondsFromNowGoesOutThenNotBefore(dialect: String) async throws {
        let world = try TestWorld(dialect: dialect, tweets: 5)
        let clock = ManualClock(now: Date())
        let daemon = try world.daemon(clock: clock)
        // Whole seconds, as `--at` gives it.
        let at = Date(timeIntervalSince1970: (clock.now().timeIntervalSince1970 + 90).rounded(.up))
        let item = try await daemon.database.enqueue(StatusDraft(text: "in ninety seconds", notBefore: at), now: clock.now())
        var wakes: [Date] = []
        while clock.now() < at {
            guard case .until(let next) = try await daemon.flusher!.flush() else { Issue.record("no pause"); return }
            #expect(world.emulator.postedStatuses.isEmpty, "sent at \(clock.now()), before \(at)")
            wakes.append(next)
            clock.advance(to: next)
            world.serverFollows(clock)
        }
        #expect(wakes.last == at, "the flusher wakes at the time to send")
        _ = try await daemon.flusher!.flush()
        #expect(world.emulator.postedStatuses.map(\.text) == ["in ninety seconds"])
        #expect(try await daemon.database.outboxItem(item.id)?.state == .sent)
    }

    @Test(arguments: ["v2", "v1.1"])
    func aDeletionIsSentOnceAndThePostIsMarkedDeleted(dialect: String) async throws {
        let world = try TestWorld(dialect: dialect, tweets: 5)
        let clock = ManualClock(now: Date())
        let daemon = try world.daemon(clock: clock)
        try await daemon.database.saveAccount(Account(userID: try await daemon.flusher!.api.me().id))
        let post = try await daemon.database.enqueue(text: "soon gone", replyTo: nil, now: clock.now())
        try await Self.flushUntilSettled(daemon, world, clock)
        let target = try #require(try await daemon.database.outboxItem(post.id)?.sentTweetID)
        // The deletion's answer is lost once: settled by looking the post up, not sent again.
        world.emulator.inject(.acceptThenReset, times: 1, endpoint: .delete)
        let deletion = try await daemon.database.enqueueDeletion(of: target, now: clock.now())
        try await Self.flushUntilSettled(daemon, world, clock)
        #expect(try await daemon.database.outboxItem(deletion.id)?.state == .sent)
        #expect(world.emulator.deletions.map(\.id) == [target.description], "deleted once")
        let deletedAt = try daemon.database.inspect {
            try Double.fetchOne($0, sql: "SELECT deletedAt FROM tweet WHERE id = ?", arguments: [target.rawValue])
        }
        #expect(deletedAt != nil)
        // The test's own users/me read ($0.010) is the emulator's, not the daemon's.
        try await Self.expectLedgerEqualsTheBill(daemon, world, besides: 10_000, counting: [(.postDelete, .postDelete, 1)])
    }

    /// The ledger holds what the emulator billed (less `besides`, micro-dollars the test
    /// itself spent), to the micro-dollar, and `counting`'s kinds as often as expected.
    static func expectLedgerEqualsTheBill(
        _ daemon: Daemon, _ world: TestWorld, besides: Int = 0, counting: [(BillableKind, EmulatorResourceKind, Int)]
    ) async throws {
        let bill = world.emulator.bill()
        let rows = try await daemon.database.spend(since: "2000-01-01")
        #expect(Int(rows.reduce(MicroUSD.zero) { $0 + $1.cost }.micros) == bill.total.micros - besides)
        for (kind, emulated, count) in counting {
            #expect(rows.filter { $0.kind == kind }.reduce(0) { $0 + $1.resources } == count, "\(kind.rawValue)")
            #expect(bill.total.count(emulated) == count, "the emulator's \(emulated.rawValue)")
        }
    }
}
