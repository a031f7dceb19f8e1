import Foundation
import Testing
import TwfeedBilling
import TwfeedEmulator
@testable import TwfeedKit
import TwfeedTesting
@testable import TwfeedCore
@testable import TwfeedStore

/// The fault matrix's cells for the outbox's second floor: each step of a post with
/// photos (upload, alt text, the post) and a deletion, × a reset, a slow answer (past
/// the one-second timeout), a 503 and a 402, served twice. Each cell asserts what the
/// user would notice: the status goes out once (photos attached with their alt texts, or
/// the post deleted once), nothing `failed`, and a 402 held the queue until its probe
/// rather than retrying. v1.1 has only the deletion (its upload is retired).
@Suite(.tags(.integration, .faultMatrix))
struct FaultMatrixStepsTests {
    enum Step: String, CaseIterable, Sendable {
        case upload, metadata, post, delete

        var endpoint: EmulatorEndpoint {
            switch self {
            case .upload: .mediaUpload
            case .metadata: .mediaMetadata
            case .post: .post
            case .delete: .delete
            }
        }
    }

    struct Cell: Sendable, CustomTestStringConvertible {
        let step: Step
        let fault: Fault
        let dialect: String
        var testDescription: String { "\(fault.controlName) × \(step.rawValue) × \(dialect)" }
    }

    static let faults: [Fault] = [.resetMidBody, .slow(seconds: 2), .status(503), .creditsDepleted()]

    static let cells: [Cell] = Step.allCases.flatMap { step in
        faults.flatMap { fault in
            (step == .delete ? ["v2", "v1.1"] : ["v2"]).map { Cell(step: step, fault: fault, dialect: $0) }
        }
    }

    static let lanes = Lanes(width: 4)

    @Test(arguments: cells)
    func theStepRidesOutTheFault(cell: Cell) async throws {
        await Self.lanes.enter()
        defer { Self.lanes.leave() }
        let clock = ManualClock(now: Date())
        let world = try TestWorld(dialect: cell.dialect, tweets: 5) {
            $0.clock = { clock.now() }
            $0.timestampToleranceSeconds = 0
        }
        try world.writeConfig([
            "api": .object(["dialect": .string(cell.dialect), "baseURL": .string(world.emulator.baseURL), "timeoutSeconds": .number("1")]),
            "outbox": .object(["flushIntervalSeconds": .number("1"), "maxAgeHours": .number("72")]),
        ])
        world.emulator.setDuplicateWindow(seconds: 0)
        let daemon = try world.daemon(clock: clock)
        let flusher = try #require(daemon.flusher)
        try await daemon.database.saveAccount(Account(userID: try await flusher.api.me().id))

        func settle() async throws {
            for _ in 0 ..< 60 {
                let pause = try await flusher.flush()
                if try await daemon.database.outboxItems().allSatisfy({ !$0.state.isUnderway }) { return }
                guard case .until(let next) = pause else { return }
                clock.advance(to: max(next, clock.now().addingTimeInterval(1)))
            }
        }

        // Two of each, so both servings meet a request even when the first lost only
        // the answer (the step was done: settled, not asked again).
        let texts = (1 ... 2).map { "matrix \(cell.testDescription) \($0)" }
        var items: [OutboxItem] = []
        if cell.step == .delete {
            var targets: [TweetID] = []
            for text in texts {
                let post = try await daemon.database.enqueue(text: text, replyTo: nil, now: clock.now())
                try await settle()
                targets.append(try #require(try await daemon.database.outboxItem(post.id)?.sentTweetID))
            }
            world.emulator.inject(cell.fault, times: 2, endpoint: cell.step.endpoint)
            for target in targets { items.append(try await daemon.database.enqueueDeletion(of: target, now: clock.now())) }
        } else {
            world.emulator.inject(cell.fault, times: 2, endpoint: cell.step.endpoint)
            for text in texts {
                let photos = [PhotoType.png, .jpeg].enumerated().map { index, type in
                    PhotoDraft(fileName: "m\(index).img", type: type, bytes: OutboxSecondFloorTests.photo(type), alt: "alt \(index)")
                }
                items.append(try await daemon.database.enqueue(StatusDraft(text: text, photos: photos), now: clock.now()))
            }
        }
        try await settle()

        for item in items {
            let final = try #require(try await daemon.database.outboxItem(item.id))
            #expect(final.state == .sent, "#\(item.id) \(final.state): \(final.lastError?.description ?? "")")
        }
        let served = world.emulator.requests.filter { $0.fault == cell.fault.controlName }
        #expect(served.count == 2, "the fault was served \(served.count) times")
        for text in texts {
            #expect(world.emulator.postedStatuses.filter { $0.text == text }.count == 1, "posted once")
        }
        if cell.step == .delete {
            #expect(world.emulator.deletions.count == 2, "each deleted once")
        } else {
            for text in texts {
                let posted = try #require(world.emulator.postedStatuses.first { $0.text == text })
                let attached = world.emulator.mediaUploads.filter { $0.postIDs == [posted.id] }
                #expect(attached.map(\.altText) == ["alt 0", "alt 1"])
                #expect(posted.mediaIDs == attached.map(\.id))
            }
        }
        if case .creditsDepleted = cell.fault, served.count == 2 {
            // Held until the probe (`api.creditsRecheckMinutes`, 15), not retried at once.
            #expect(served[1].date.timeIntervalSince(served[0].date) >= 15 * 60)
            #expect(try await daemon.database.outboxItems().allSatisfy { $0.state != .failed })
        }
    }
}
