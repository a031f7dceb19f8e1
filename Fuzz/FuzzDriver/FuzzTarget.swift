import CFuzzer
import Foundation

/// A libFuzzer target: `fuzz` gets every input libFuzzer makes up. Put `@main` on the
/// conforming type: its `main` hands the command line to libFuzzer's driver, since
/// SwiftPM renames an executable's `main` and libFuzzer's own cannot be used.
public protocol FuzzTarget {
    static func fuzz(_ input: UnsafeBufferPointer<UInt8>)
}

extension FuzzTarget {
    public static func main() {
        FuzzEntry.body = fuzz
        exit(twfeed_fuzz_main(CommandLine.argc, CommandLine.unsafeArgv, fuzzEntry))
    }
}

/// The target's `fuzz`, for the C callback, which can capture nothing. Set once in
/// `main`, before libFuzzer starts calling.
enum FuzzEntry {
    nonisolated(unsafe) static var body: (UnsafeBufferPointer<UInt8>) -> Void = { _ in }
}

private func fuzzEntry(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzEntry.body(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
    return 0
}
