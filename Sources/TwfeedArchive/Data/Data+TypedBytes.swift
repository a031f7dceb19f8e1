import Foundation

extension Data {
    /// `withUnsafeBytes` for a body that throws only `ArchiveError` (Foundation's rethrows
    /// an untyped error).
    func withBytes<T>(_ body: (UnsafeBufferPointer<UInt8>) throws(ArchiveError) -> T) throws(ArchiveError) -> T {
        let result: Result<T, ArchiveError> = withUnsafeBytes { raw in
            do throws(ArchiveError) {
                return .success(try body(raw.bindMemory(to: UInt8.self)))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// `withUnsafeMutableBytes` likewise.
    mutating func withMutableBytes<T>(_ body: (UnsafeMutableRawBufferPointer) throws(ArchiveError) -> T) throws(ArchiveError) -> T {
        let result: Result<T, ArchiveError> = withUnsafeMutableBytes { raw in
            do throws(ArchiveError) {
                return .success(try body(raw))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
