import Foundation
import Testing
import TwfeedEmulator
@testable import TwfeedKit
import TwfeedTesting

/// A fault in the middle of a range costs nothing: the next poll completes it.
@Suite(.serialized, .tags(.integration))
struct FaultTests {
    static let faults: [Fault] = [.status(500), .status(503), .resetMidBody, .truncatedJSON, .malformedJSON, .slow(seconds: 3), .authFailure]

    @Test(arguments: faults)
    func aFaultOnTheThirdPageLosesNothing(fault: Fault) async throws {
        let world = try TestWorld(tweets: 600)
        try world.writeConfig(["api": .object([
            "dialect": .string("v2"), "baseURL": .string(world.emulator.baseURL), "timeoutSeconds": .number("1"),
        ])])
        let emulator = world.emulator
        let third = NthRequest(3, containing: "reverse_chronological") {
            emulator.inject(fault, times: 1, pathContains: "reverse_chronological")
        }
        let daemon = try world.daemon(transport: ObservedTransport { third.see($0) })
        let home = try #require(daemon.syncers.first { $0.feed == .home })

        let broken = try await home.poll()
        #expect(!broken.complete)
        #expect(broken.error != nil)
        #expect(broken.requests == 2)
        let state = try await daemon.database.syncState(.home)
        #expect(state.newestID == nil)
        #expect(state.pendingBottom != nil)
        #expect(state.lastError == broken.error?.pollFailure, "the failure is recorded as it happened")
        // Two pages are stored (pages can come back short: the emulator drops some, as the API does).
        let kept = try await daemon.database.memberIDs(.home).count
        #expect(kept > 100 && kept <= 200, "\(kept)")

        let resumed = try await home.poll()
        #expect(resumed.complete)
        #expect(try await daemon.database.memberIDs(.home).map(\.description) == world.emulator.groundTruth(.home, dialect: .v2))
        #expect(try await daemon.database.syncState(.home).lastError == nil)
    }

    @Test func wrongCredentialsAreAnAuthProblem() async throws {
        let world = try TestWorld(tweets: 10)
        try Credentials(consumerKey: "wrong", consumerSecret: "wrong", accessToken: "wrong", accessTokenSecret: "wrong").write(to: world.credentialsPath)
        let daemon = try world.daemon()
        let outcome = try await daemon.syncers[0].poll()
        #expect(outcome.error?.kind == .unauthorized)
        #expect(world.sink.events("auth.failed").count == 1)
        #expect(try await daemon.database.syncState(daemon.syncers[0].feed).nextPollAt!.timeIntervalSinceNow > 400)
    }

    @Test func aForced429WaitsForTheEmulatorsReset() async throws {
        let world = try TestWorld(tweets: 10)
        let daemon = try world.daemon()
        let home = try #require(daemon.syncers.first { $0.feed == .home })
        try await home.poll()  // resolves the account first
        world.emulator.inject(.rateLimited, pathContains: "reverse_chronological")
        let outcome = try await home.poll()
        #expect(outcome.error?.status == 429)
        let state = try await daemon.database.syncState(.home)
        #expect(state.rateLimit?.remaining == 0)
        #expect(state.nextPollAt == state.rateLimit?.resetAt)
        #expect(state.nextPollAt! > Date())
    }
}
