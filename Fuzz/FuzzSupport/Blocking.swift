import Dispatch

/// libFuzzer calls its entry point synchronously; twfeed's client API is async. This
/// runs one async body to completion on the cooperative pool and waits for it.
public func runBlocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        box.value = await body()
        done.signal()
    }
    done.wait()
    return box.value!
}

/// Written by the one task before the semaphore is signalled, read after the wait.
private final class ResultBox<T>: @unchecked Sendable {
    var value: T?
}
