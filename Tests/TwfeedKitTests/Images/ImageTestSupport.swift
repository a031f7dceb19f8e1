import Foundation
import Logging
import Synchronization
@testable import TwfeedKit
import TwfeedTesting
@testable import TwfeedCore
@testable import TwfeedStore

/// A temporary cache folder, an in-memory database, a manual clock and a log.
struct ImageFixture {
    let folder: String
    let store: ImageStore
    let database: AppDatabase
    let clock = ManualClock()
    let sink = MemorySink()
    let logger: Logger

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("twfeed-img-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        store = ImageStore(root: "\(folder)/images")
        database = try AppDatabase.inMemory()
        logger = Logger(label: "test") { [sink] _ in EventLogHandler(level: .debug, format: .logfmt, sink: sink) }
    }

    func remove() { try? FileManager.default.removeItem(atPath: folder) }

    /// Authors as a stored page brings them (their `updatedAt` is the clock's now).
    func storeAuthors(_ authors: [(id: Int64, url: String?)]) throws {
        let page = TimelinePage(
            tweets: [], authors: authors.map { Author(id: TweetID($0.id), username: "u\($0.id)", name: "U \($0.id)", profileImageURL: $0.url) },
            nextPageToken: nil)
        try database.storePage(page, feed: .home, state: SyncState(feed: .home), now: clock.now())
    }

    func config(_ edit: (inout TwfeedConfig.Images) -> Void = { _ in }) -> TwfeedConfig {
        var config = TwfeedConfig(environment: ["HOME": folder])
        config.storage.imageCache = store.root
        config.images.allowedHosts = ["pbs.twimg.com", "cdn.example"]
        edit(&config.images)
        return config
    }

    /// A PNG-looking body, distinct per seed.
    static func png(_ seed: Int, size: Int = 100) -> [UInt8] {
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + (0 ..< max(0, size - 8)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ seed) }
    }
}

/// A scripted image host: answers by URL, records every request, and counts how many
/// are in flight at once (each takes 20 ms).
final class ScriptedImageHost: APITransport {
    struct State {
        var answers: [String: @Sendable (APIRequest) throws -> APIResponse] = [:]
        var requests: [APIRequest] = []
        var inFlight = 0
        var maxInFlight = 0
    }

    let state = Mutex(State())

    func answer(_ url: String, _ response: @escaping @Sendable (APIRequest) throws -> APIResponse) {
        state.withLock { $0.answers[url] = response }
    }

    /// An image with an ETag; 304 when the request carries it.
    func image(_ url: String, body: [UInt8], etag: String, contentType: String = "image/png") {
        answer(url) { request in
            if request.headers.contains(where: { $0.name == "If-None-Match" && $0.value == etag }) {
                return APIResponse(status: 304, headers: ["etag": etag])
            }
            return APIResponse(status: 200, headers: ["content-type": contentType, "etag": etag,
                                                       "last-modified": "Sat, 21 Nov 2026 10:00:00 GMT"], body: body)
        }
    }

    private let waiters = Mutex<[(count: Int, continuation: CheckedContinuation<Void, Never>)]>([])

    /// Returns once at least `count` requests have come in.
    func waitForRequests(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = waiters.withLock { waiters -> Bool in
                if requests.count >= count { return true }
                waiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    var requests: [APIRequest] { state.withLock { $0.requests } }
    var urls: [String] { requests.map(\.url) }
    var maxInFlight: Int { state.withLock { $0.maxInFlight } }

    func send(_ request: APIRequest) async throws -> APIResponse {
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
