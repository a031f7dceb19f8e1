import Foundation

/// Reads a small file whole, or says why it could not in the system's words.
///
/// FileManager's `contents(atPath:)` answers nil with no reason, and `errno` after it
/// need not be the cause: a credentials file that root's mode keeps from its user was
/// reported as "cannot read credentials file" and nothing more.
package enum WholeFile {
    /// The file's bytes; else throws `code` with "PATH: cannot read WHAT: REASON".
    package static func read(_ path: String, what: String, code: TwfeedError.Code = .configuration) throws -> Data {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw TwfeedError(code, "\(path): cannot read \(what): \(String(cString: strerror(errno)))")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            return try handle.readToEnd() ?? Data()
        } catch {
            // A folder opens for reading and fails here (EISDIR).
            throw TwfeedError(code, "\(path): cannot read \(what): \(Self.reason(error))")
        }
    }

    /// The system's words for a failed read ("No such file or directory"), not
    /// Foundation's sentence around them, whether Foundation wrapped the errno or named
    /// the failure in its own codes (`FileHandle(forReadingFrom:)` does both).
    package static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let posix = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, posix.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(posix.code)))
        }
        if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
        if nsError.domain == NSCocoaErrorDomain, nsError.code == NSFileReadNoSuchFileError || nsError.code == NSFileNoSuchFileError {
            return String(cString: strerror(ENOENT))
        }
        if nsError.domain == NSCocoaErrorDomain, nsError.code == NSFileReadNoPermissionError {
            return String(cString: strerror(EACCES))
        }
        return nsError.localizedDescription
    }
}
