import Foundation
import FuzzDriver
import FuzzSupport
import TwfeedKit
import TwfeedCore

/// The config reader on arbitrary bytes as `config.json`. Bad input must end in a
/// TwfeedError (exit 78), never a trap; the intervals it accepts are then handed to the
/// daemon's clock, where a huge value used to trap (issue 10, defect 2).
@main
enum FuzzConfig: FuzzTarget {
    static func fuzz(_ input: UnsafeBufferPointer<UInt8>) {
        guard let config = try? ConfigLoader.parse(Data(input), path: "config.json", environment: ["HOME": "/home/fuzz"]) else {
            return
        }
        let waits = config.feeds.values.map(\.intervalSeconds) + [config.outbox.flushIntervalSeconds]
        runBlocking {
            for seconds in waits { await sleepCancelled(for: seconds) }
        }
    }
}
