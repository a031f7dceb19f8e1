import Foundation

/// Hands the C heap's free pages back to the kernel (glibc's `malloc_trim(0)`).
///
/// Memory freed to malloc stays in the process: glibc returns the top of a heap once it
/// is large, but not the free pages between live blocks, and every thread's arena keeps
/// its own. After the writer's page cache is emptied (`releaseWriterCache`) most of what
/// it held is such pages, so without the trim the daemon's own memory does not fall.
///
/// Looked up at run time: Swift's Glibc module does not export `malloc.h`, and a C
/// library other than glibc (without the symbol) simply skips it.
enum MallocTrim {
    private typealias Trim = @convention(c) (Int) -> Int32

    static func run() {
        guard let symbol = dlsym(nil, "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
    }
}
