import Foundation
import Logging
import ServiceLifecycle
import Testing
@testable import TwfeedCore
@testable import TwfeedReader
import TwfeedTesting

/// What only a real socket shows (every other reader test asks the router in process):
/// the server binds the loopback address it is given and says which port it got; the
/// `Host` header a client sends is what the loopback-only check reads; a loopback peer
/// reads `/metrics` without signing in; a HEAD answer carries no body; a form too
/// large is refused before it is read.
struct ReaderSocketTests {
    @Test func theServerAnswersOnTheLoopbackPortItReports() async throws {
        let world = try await ReaderHarness()
        let (bound, listening) = AsyncStream.makeStream(of: ListenAddress.self)
        let server = ReaderServer(source: try world.source(), address: world.config.http.listen!, logger: world.logger) { address in
            listening.yield(address)
        }
        let group = ServiceGroup(configuration: .init(services: [.init(service: server)], logger: Logger(label: "quiet") { _ in SwiftLogNoOpLogHandler() }))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                defer { listening.finish() }
                try await group.run()
            }
            var addresses = bound.makeAsyncIterator()
            let address = try #require(await addresses.next())
            #expect(address.host == "127.0.0.1" && address.port > 0)
            #expect(world.sink.events("http.listening").contains { $0.contains("127.0.0.1:\(address.port)") })
            let port = address.port
            let home = try await RawHTTP.request(port: port, "/home", headers: ["Authorization": "Bearer \(try world.secret)"])
            #expect(home.status == 200 && home.text.contains("Plain tweet number 1060"))
            let foreign = try await RawHTTP.request(port: port, "/home", host: "evil.example:\(port)",
                                                    headers: ["Authorization": "Bearer \(try world.secret)"])
            #expect(foreign.status == 421)
            #expect(try await RawHTTP.request(port: port, "/metrics").status == 200, "a loopback peer reads the metrics")
            #expect(try await RawHTTP.request(port: port, "/home").status == 401)
            let head = try await RawHTTP.request(port: port, "/home", method: "HEAD", headers: ["Authorization": "Bearer \(try world.secret)"])
            #expect(head.status == 200 && head.headers["content-type"] == "text/html; charset=utf-8" && head.body.isEmpty)
            // A form that says it is larger than /compose takes is refused before its body
            // is read: the browser gets the one line, not a wait for 300 MB.
            let secret = try world.secret
            let huge = try await withCheckedThrowingContinuation { continuation in
                Thread.detachNewThread {
                    continuation.resume(with: Result {
                        let head = "POST /compose HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAuthorization: Bearer \(secret)\r\n"
                            + "Origin: http://127.0.0.1:\(port)\r\nContent-Type: multipart/form-data; boundary=b\r\n"
                            + "Content-Length: 300000000\r\nConnection: close\r\n\r\n--b\r\n"
                        return try RawHTTP.parse(RawHTTP.exchange(port: port, Array(head.utf8), method: "POST"), method: "POST")
                    })
                }
            }
            #expect(huge.status == 413 && huge.text.hasPrefix("refused: the form is larger than the \(ComposeForm.bodyLimit) bytes this page takes"))
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
        #expect(world.sink.events("http.stopped").count == 1)
    }
}
