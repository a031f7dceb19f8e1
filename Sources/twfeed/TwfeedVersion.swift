/// twfeed's version: the one place it is written. `twfeed --version` prints it, and
/// scripts/package asks the built binary for it to name the Debian package
/// (`dist/twfeed_VERSION_ARCH.deb`), so the two cannot differ.
enum TwfeedVersion {
    static let current = "0.1.0"
}
