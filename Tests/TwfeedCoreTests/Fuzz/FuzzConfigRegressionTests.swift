import Foundation
import Testing
import TwfeedCore

/// Config files the config fuzzer (`scripts/fuzz config`, docs/FUZZING.md) found trapping
/// the reader or the daemon's clock. Each must now be refused with the one-line
/// configuration error (exit 78) that names the key.
struct FuzzConfigRegressionTests {
    func failure(_ text: String) -> TwfeedError? {
        do {
            _ = try ConfigLoader.parse(Data(text.utf8), path: "/etc/twfeed.json", environment: ["HOME": "/home/ada"])
            return nil
        } catch let error as TwfeedError {
            return error
        } catch {
            return nil
        }
    }

    @Test(arguments: [
        // Past Int's range: the "out of range" message itself trapped writing the number.
        (#"{"api":{"timeoutSeconds":1e19}}"#, "api.timeoutSeconds: 1e+19 is out of range: must be between 1 and 600"),
        // "1e999" reads as infinity.
        (#"{"images":{"timeoutSeconds":-1e999}}"#, "images.timeoutSeconds: -inf is out of range: must be between 1 and 600"),
        // Accepted, then Int(1e19) trapped.
        (#"{"images":{"maxCacheMB":1e19}}"#, "images.maxCacheMB: 1e+19 is out of range: must be between 1 and 1048576"),
        // Found by the fuzzer in the example config: accepted, then the feed loop's sleep
        // (Int64(seconds * 1000)) trapped.
        (#"{"feeds":{"home":{"enabled":true,"intervalSeconds":1100000000000000000000000000000000000000000000000000000000000000000000000009}}}"#,
         "feeds.home.intervalSeconds: 1.1e+75 is out of range: must be between 15 and 86400"),
        (#"{"outbox":{"flushIntervalSeconds":1e999}}"#, "outbox.flushIntervalSeconds: inf is out of range: must be between 1 and 86400"),
    ])
    func hugeNumbersAreConfigurationErrors(input: String, message: String) {
        let error = failure(input)
        #expect(error?.code == .configuration)
        #expect(error?.message == "/etc/twfeed.json: \(message)")
    }

    @Test func theLargestAcceptedValuesStillLoad() throws {
        let text = #"{"feeds":{"retweets":{"intervalSeconds":86400}},"outbox":{"flushIntervalSeconds":86400},"images":{"maxCacheMB":1048576}}"#
        let config = try ConfigLoader.parse(Data(text.utf8), path: "/etc/twfeed.json", environment: ["HOME": "/home/ada"])
        #expect(config.feeds[.retweets]?.intervalSeconds == 86400)
        #expect(config.outbox.flushIntervalSeconds == 86400)
        #expect(config.images.maxCacheMB == 1048576)
    }
}
