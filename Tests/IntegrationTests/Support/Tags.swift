import Testing

extension Tag {
    /// Runs the real `twfeed` binary from `.build/debug` against the emulator: seconds a
    /// test, and a build first. Every suite of this target carries it.
    @Tag static var integration: Self
    /// The fault matrix: every fault the emulator injects in every phase of a poll, the
    /// longest suite of the full run.
    @Tag static var faultMatrix: Self
}
