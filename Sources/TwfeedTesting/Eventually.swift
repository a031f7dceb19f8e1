import Foundation

/// Waits until a condition holds: the event a test awaits (a row written, a request the
/// emulator saw, a log line) when it drives a separate process or a daemon on the real
/// clock, which no manual clock reaches. Returns whether the condition came true.
/// `safetyNet` only ends a wait that would otherwise hang (five minutes of real time, far
/// beyond any wait here on a loaded machine): a slow machine makes a test slower, never
/// failed. A test whose point is a time bound asserts it itself.
package func eventually(safetyNet: Duration = .seconds(300), _ condition: () async throws -> Bool) async rethrows -> Bool {
    let hung = ContinuousClock.now.advanced(by: safetyNet)
    while ContinuousClock.now < hung {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(25))
    }
    return try await condition()
}
