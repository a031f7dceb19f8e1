/// Runs `work` on every element, at most `limit` at a time, and adds up what each did
/// with `add`: the image fetchers' passes (a host is asked for a few pictures at once,
/// never a whole page's worth).
func forEachBounded<Element: Sendable, Tally: Sendable>(
    _ elements: [Element],
    limit: Int,
    into tally: inout Tally,
    add: (inout Tally, Tally) -> Void,
    _ work: @escaping @Sendable (Element) async throws -> Tally
) async throws {
    try await withThrowingTaskGroup(of: Tally.self) { group in
        var pending = elements.makeIterator()
        for _ in 0..<max(1, limit) {
            guard let element = pending.next() else { break }
            group.addTask { try await work(element) }
        }
        while let done = try await group.next() {
            add(&tally, done)
            if let element = pending.next() { group.addTask { try await work(element) } }
        }
    }
}
