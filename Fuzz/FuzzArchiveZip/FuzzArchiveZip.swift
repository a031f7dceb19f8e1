import Foundation
import FuzzDriver

import TwfeedArchive

/// The zip reader on arbitrary bytes, written to a file in /dev/shm as an archive: the
/// central directory (ZIP64 included), the entry paths, the limits, inflating, then the
/// whole archive read (`check()`: posts, likes, notes, photos). Nothing may trap, and no
/// limit may be passed (`ArchiveFuzzing.limits`).
@main
enum FuzzArchiveZip: FuzzTarget {
    static let path = "/dev/shm/twfeed-fuzz-archive-\(getpid()).zip"

    static func fuzz(_ input: UnsafeBufferPointer<UInt8>) {
        guard FileManager.default.createFile(atPath: path, contents: Data(buffer: input)) else { return }
        ArchiveFuzzing.zip(path: path)
    }
}
