import Foundation

/// Identifies a file's content cheaply: device, inode, size and modification time. A
/// rewrite through a rename (as `Credentials.write` does) always changes the inode.
package struct FileFingerprint: Equatable, Sendable {
    package var device: UInt64 = 0
    package var inode: UInt64 = 0
    package var size: Int64 = -1
    package var modified: Int = 0
    package var modifiedNanoseconds: Int = 0

    package init(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = info.st_mtim.tv_sec
        modifiedNanoseconds = info.st_mtim.tv_nsec
    }
}
