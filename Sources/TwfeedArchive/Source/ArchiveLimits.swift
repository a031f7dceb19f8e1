/// How much an archive may unpack to: X's archives reach a few GB, a zip bomb far more.
/// Checked from the zip's headers when it is opened AND while each entry is inflated, as
/// a header's declared size is never trusted.
package struct ArchiveLimits: Sendable, Equatable {
    /// All entries together, uncompressed.
    package var maxTotalBytes: Int64
    /// Uncompressed over compressed size, per entry.
    package var maxRatio: Int64
    /// The ratio is judged only past this many uncompressed bytes: a few hundred bytes of
    /// an empty data file deflate to a handful, which is no bomb.
    package var ratioFloorBytes: Int64

    package init(maxTotalBytes: Int64 = 20 * 1_000_000_000, maxRatio: Int64 = 100, ratioFloorBytes: Int64 = 1 << 20) {
        self.maxTotalBytes = maxTotalBytes
        self.maxRatio = maxRatio
        self.ratioFloorBytes = ratioFloorBytes
    }

    package static let standard = ArchiveLimits()

    /// Whether `uncompressed` bytes from `compressed` exceed the ratio.
    func exceedsRatio(uncompressed: Int64, compressed: Int64) -> Bool {
        uncompressed > ratioFloorBytes && uncompressed > maxRatio * max(compressed, 1)
    }
}
