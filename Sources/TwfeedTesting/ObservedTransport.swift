import Synchronization
import TwfeedKit

/// The real transport (libcurl, unless told otherwise), watched: a hook sees each request
/// before it goes out (to break the n-th page of a range), and the requests in flight are
/// counted (a test that drives a `ManualClock` lets no time pass while one is).
package final class ObservedTransport: APITransport {
    let inner: any APITransport
    let hook: @Sendable (APIRequest) -> Void
    private let count = Mutex(0)

    package init(inner: any APITransport = CurlTransport(), hook: @escaping @Sendable (APIRequest) -> Void = { _ in }) {
        self.inner = inner
        self.hook = hook
    }

    package var inFlight: Int { count.withLock { $0 } }

    package func send(_ request: APIRequest) async throws -> APIResponse {
        hook(request)
        count.withLock { $0 += 1 }
        defer { count.withLock { $0 -= 1 } }
        return try await inner.send(request)
    }
}
