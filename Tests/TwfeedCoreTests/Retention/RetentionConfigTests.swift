import Foundation
import Testing
@testable import TwfeedCore

struct RetentionConfigTests {
    func parse(_ text: String) throws -> TwfeedConfig {
        try ConfigLoader.parse(Data(text.utf8), path: "/etc/twfeed.json", environment: ["HOME": "/home/ada"])
    }

    @Test func keepDaysDefaultsToKeepingEverything() throws {
        #expect(try parse("{}").storage.keepDays == 0)
        #expect(try parse(#"{"storage": {"keepDays": 365}}"#).storage.keepDays == 365)
        #expect(try parse(#"{"storage": {"keepDays": 36500}}"#).storage.keepDays == 36500)
        #expect(try parse(#"{"storage": {"keepDays": 0}}"#).storage.keepDays == 0)
    }

    @Test(arguments: [
        (#"{"storage": {"keepDays": -1}}"#, "/etc/twfeed.json: storage.keepDays: -1 is out of range: must be between 0 and 36500"),
        (#"{"storage": {"keepDays": 36501}}"#, "/etc/twfeed.json: storage.keepDays: 36501 is out of range: must be between 0 and 36500"),
        (#"{"storage": {"keepDays": 1.5}}"#, "/etc/twfeed.json: storage.keepDays: 1.5 must be a whole number"),
        (#"{"storage": {"keepDays": "30"}}"#, "/etc/twfeed.json: storage.keepDays: must be a number, not a string"),
    ])
    func aBadKeepDaysIsOneLineAndExit78(text: String, message: String) {
        #expect {
            try parse(text)
        } throws: { error in
            guard let error = error as? TwfeedError else { return false }
            return error.code.exitCode == 78 && error.message == message && !error.message.contains("\n")
        }
    }
}
