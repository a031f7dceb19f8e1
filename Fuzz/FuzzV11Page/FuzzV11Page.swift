import FuzzDriver
import FuzzSupport
import TwfeedKit

/// The v1.1 client's answer handling on arbitrary body bytes: once as a timeline page
/// (the JSON reader and the status parser, retweeted and quoted statuses included), once
/// as an error answer.
@main
enum FuzzV11Page: FuzzTarget {
    static func fuzz(_ input: UnsafeBufferPointer<UInt8>) {
        fuzzPage(.v1_1, Array(input))
    }
}
