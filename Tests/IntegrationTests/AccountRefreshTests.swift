import Foundation
import GRDB
import Testing
import TwfeedBilling
import TwfeedEmulator
@testable import TwfeedKit
import TwfeedTesting
@testable import TwfeedCore
@testable import TwfeedStore

/// The account's own name and picture are refreshed once a UTC day (`GET /2/users/me`,
/// v1.1 `verify_credentials`, one user read, charged to `account`), however rarely its
/// own posts come by: across a UTC midnight the daemon asks once more and stores the new
/// name and picture URL; not twice the same day.
@Suite(.serialized, .tags(.integration))
struct AccountRefreshTests {
    @Test(arguments: ["v2", "v1.1"])
    func theAccountsOwnFaceIsRefreshedOnceAUTCDay(dialect: String) async throws {
        // 23:00 UTC: an hour before midnight on both clocks.
        let clock = ManualClock(now: BillingCycle.endOfUTCDay(Date()).addingTimeInterval(-3600))
        let world = try TestWorld(dialect: dialect, tweets: 10)
        world.serverFollows(clock)
        let daemon = try world.daemon(clock: clock)
        let account = Emulator.accountUserID
        func whoAmIRequests() -> Int { world.emulator.requests.filter { $0.endpoint == "me" && $0.status == 200 }.count }
        func pollAll() async throws {
            world.serverFollows(clock)
            for syncer in daemon.syncers { try await syncer.poll() }
        }
        func stored() throws -> (name: String?, picture: String?) {
            try daemon.database.inspect { db in
                let row = try Row.fetchOne(db, sql: "SELECT name, profileImageURL FROM user WHERE id = ?", arguments: [Int64(account)!])
                return (row?["name"], row?["profileImageURL"])
            }
        }

        try await pollAll()
        #expect(whoAmIRequests() == 1)
        let before = try stored()
        #expect(before.name != nil && before.picture != nil, "the account's own user is stored from the first call")

        // The same UTC day: polls go on without asking again.
        world.emulator.renameUser(account, to: "Ada, renamed")
        let newPicture = try #require(world.emulator.changeProfileImageURL(ofUser: account))
        clock.advance(by: 1800)
        try await pollAll()
        #expect(whoAmIRequests() == 1, "not twice the same day")

        // Past midnight: asked once more, and the new name and picture are stored.
        clock.advance(by: 3600)
        try await pollAll()
        #expect(whoAmIRequests() == 2)
        let after = try stored()
        #expect(after.name == "Ada, renamed")
        #expect(after.picture == newPicture)
        clock.advance(by: 3 * 3600)
        try await pollAll()
        #expect(whoAmIRequests() == 2, "once a day")

        // Charged to `account` each day, as the emulator billed it.
        let rows = try await daemon.database.spend(since: "2000-01-01").filter { $0.source == .account && $0.kind == .userRead }
        #expect(rows.count == 2)
        #expect(rows.allSatisfy { $0.resources + $0.repeats == 1 })
        let ours = try await daemon.database.spend(since: "2000-01-01").reduce(MicroUSD.zero) { $0 + $1.cost }
        #expect(Int(ours.micros) == world.emulator.bill().total.micros)
    }
}
