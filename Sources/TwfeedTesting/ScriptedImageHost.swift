import Synchronization
import TwfeedKit

/// A scripted image host: answers by URL, records every request, and counts how many
/// are in flight at once (each takes 20 ms).
package final class ScriptedImageHost: APITransport {
    package struct State {
        package var answers: [String: @Sendable (APIRequest) throws -> APIResponse] = [:]
        package var requests: [APIRequest] = []
        package var inFlight = 0
        package var maxInFlight = 0
    }

    package let state = Mutex(State())

    package init() {}

    package func answer(_ url: String, _ response: @escaping @Sendable (APIRequest) throws -> APIResponse) {
        state.withLock { $0.answers[url] = response }
    }

    /// An image with an ETag; 304 when the request carries it.
    package func image(_ url: String, body: [UInt8], etag: String, contentType: String = "image/png") {
        answer(url) { request in
            if request.headers.contains(where: { $0.name == "If-None-Match" && $0.value == etag }) {
                return APIResponse(status: 304, headers: ["etag": etag])
            }
            return APIResponse(
                status: 200,
                headers: [
                    "content-type": contentType, "etag": etag,
                    "last-modified": "Sat, 21 Nov 2026 10:00:00 GMT",
                ],
                body: body
            )
        }
    }

    private let waiters = Mutex<[(count: Int, continuation: CheckedContinuation<Void, Never>)]>([])

    /// Returns once at least `count` requests have come in.
    package func waitForRequests(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = waiters.withLock { waiters -> Bool in
                if requests.count >= count { return true }
                waiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    package var requests: [APIRequest] { state.withLock { $0.requests } }
    package var urls: [String] { requests.map(\.url) }
    package var maxInFlight: Int { state.withLock { $0.maxInFlight } }

    package func send(_ request: APIRequest) async throws -> APIResponse {
        let (answer, seen) = state.withLock { state in
            state.requests.append(request)
            state.inFlight += 1
            state.maxInFlight = max(state.maxInFlight, state.inFlight)
            return (state.answers[request.url], state.requests.count)
        }
        let ready = waiters.withLock { waiters in
            let ready = waiters.filter { $0.count <= seen }.map(\.continuation)
            waiters.removeAll { $0.count <= seen }
            return ready
        }
        ready.forEach { $0.resume() }
        // Let the other downloads start before this one answers.
        await Task.yield()
        try? await Task.sleep(for: .milliseconds(20))
        defer { state.withLock { $0.inFlight -= 1 } }
        guard let answer else { return APIResponse(status: 404) }
        return try answer(request)
    }
}
