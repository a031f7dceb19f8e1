import Foundation
import FuzzDriver

import TwfeedArchive

/// An archive data file on arbitrary bytes: the assignment's shape, the element scanner,
/// each element decoded as a post (notes matched from the same bytes read as
/// `note-tweet.js`), a like, and the bytes as `manifest.js`. Every refusal must be an
/// `ArchiveError`; nothing may trap.
@main
enum FuzzArchiveData: FuzzTarget {
    static func fuzz(_ input: UnsafeBufferPointer<UInt8>) {
        ArchiveFuzzing.dataFile(Data(buffer: input))
    }
}
