import FuzzDriver
import FuzzSupport
import TwfeedKit

/// The v2 client's answer handling on arbitrary body bytes: once as a timeline page (the
/// JSON reader and the page parser), once as an error answer (the error-body reader).
@main
enum FuzzV2Page: FuzzTarget {
    static func fuzz(_ input: UnsafeBufferPointer<UInt8>) {
        fuzzPage(.v2, Array(input))
    }
}
