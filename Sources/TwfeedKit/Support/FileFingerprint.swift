import Foundation

/// Identifies a file's content cheaply: device, inode, size and modification time. A
/// rewrite through a rename (as `Credentials.write` does) always changes the inode.
struct FileFingerprint: Equatable, Sendable {
    var device: UInt64 = 0
    var inode: UInt64 = 0
    var size: Int64 = -1
    var modified: Int = 0
    var modifiedNanoseconds: Int = 0

    init(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = info.st_mtim.tv_sec
        modifiedNanoseconds = info.st_mtim.tv_nsec
    }
}
