import Foundation
import Testing
import TwfeedEmulator

/// The duplicate check covers recent posts only, so a client cannot lean on it.
@Suite struct DuplicateWindowTests {
    @Test func theDefaultWindowIsADayOnTheServersClock() throws {
        #expect(EmulatorConfiguration().duplicateWindowSeconds == 86_400)
        // The OAuth timestamp check is off: the test moves the server's clock by hours.
        try withEmulator({ $0.timestampToleranceSeconds = 0 }) { emulator, client in
            #expect(try client.send("POST", "/2/tweets", json: #"{"text":"gm"}"#).status == 201)
            emulator.setClockSkew(seconds: 23 * 3_600)
            let refused = try client.send("POST", "/2/tweets", json: #"{"text":"gm"}"#)
            #expect(refused.status == 403)
            #expect(refused.object["detail"] as? String == "You are not allowed to create a Tweet with duplicate content.")
            emulator.setClockSkew(seconds: 24 * 3_600 + 1)
            let again = try client.send("POST", "/2/tweets", json: #"{"text":"gm"}"#)
            #expect(again.status == 201, "a day later the same text goes out again")
            #expect(emulator.postedStatuses.map(\.text) == ["gm", "gm"])
            #expect(Set(emulator.postedStatuses.map(\.id)).count == 2)
            #expect(Array(emulator.ownTweetIDs().prefix(2)) == emulator.postedStatuses.reversed().map(\.id))
        }
    }

    @Test func aShortWindowEndsInBothDialects() throws {
        try withEmulator({ $0.duplicateWindowSeconds = 60; $0.timestampToleranceSeconds = 0 }) { emulator, client in
            #expect(try client.send("POST", "/1.1/statuses/update.json", form: [("status", "hello")]).status == 200)
            let duplicate = try client.send("POST", "/1.1/statuses/update.json", form: [("status", "hello")])
            #expect(duplicate.status == 403 && duplicate.text.contains("\"code\":187"))
            #expect(try client.send("POST", "/2/tweets", json: #"{"text":"hello"}"#).status == 403, "one account, one check")
            emulator.setClockSkew(seconds: 61)
            #expect(try client.send("POST", "/1.1/statuses/update.json", form: [("status", "hello")]).status == 200)
            #expect(try client.send("POST", "/2/tweets", json: #"{"text":"hello"}"#).status == 403,
                    "the window runs from the latest post of the text")
            #expect(emulator.postedStatuses.count == 2)
        }
    }

    @Test func windowZeroMeansNoCheckAndTheControlRouteSetsIt() throws {
        try withEmulator({ $0.duplicateWindowSeconds = 0 }) { emulator, client throws in
            #expect(try client.send("POST", "/2/tweets", json: #"{"text":"same"}"#).status == 201)
            #expect(try client.send("POST", "/2/tweets", json: #"{"text":"same"}"#).status == 201)

            let unsigned = TestClient(emulator: emulator, signer: nil)
            #expect(try unsigned.send("POST", "/_emulator/duplicate-window", json: #"{"seconds":-1}"#).status == 400)
            #expect(try unsigned.send("POST", "/_emulator/duplicate-window", json: #"{"seconds":3600}"#).status == 200)
            #expect(emulator.duplicateWindowSeconds == 3_600)
            #expect(try client.send("POST", "/2/tweets", json: #"{"text":"same"}"#).status == 403)
            emulator.setDuplicateWindow(seconds: 0)
            #expect(try client.send("POST", "/2/tweets", json: #"{"text":"same"}"#).status == 201)
            #expect(emulator.postedStatuses.count == 3)
        }
    }
}
