import Foundation
import Testing
import TwfeedEmulator

@Suite struct ServerTests {
    @Test func keepAliveAndExpectContinue() throws {
        try withEmulator { emulator, client in
            let connection = try TestConnection(port: client.port)
            for _ in 0..<3 {
                connection.send(client.requestBytes("GET", "/2/users/me"))
                let response = try #require(connection.readResponse().response)
                #expect(response.status == 200)
                #expect(response.header("connection") == "keep-alive")
            }
            // A client that waits for 100 Continue before its body (as libcurl does).
            let body = "status=" + String(repeating: "x", count: 100)
            let authorization = TestSigner().authorization(
                method: "POST", url: "http://127.0.0.1:\(client.port)/1.1/statuses/update.json",
                parameters: [("status", String(repeating: "x", count: 100))])
            connection.send("POST /1.1/statuses/update.json HTTP/1.1\r\nHost: 127.0.0.1:\(client.port)\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\nAuthorization: \(authorization)\r\n"
                + "Expect: 100-continue\r\nContent-Length: \(body.utf8.count)\r\n\r\n")
            let interim = try #require(connection.readInterimLine())
            #expect(interim.hasPrefix("HTTP/1.1 100"))
            connection.send(body)
            let posted = try #require(connection.readResponse().response)
            #expect(posted.status == 200)

            connection.send("GET /_emulator/stats HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let last = try #require(connection.readResponse().response)
            #expect(last.header("connection") == "close")
            #expect(connection.isClosedByPeer())
            _ = emulator
        }
    }

    @Test func stopClosesIdleConnectionsPromptly() throws {
        let emulator = Emulator(configuration: EmulatorConfiguration())
        try emulator.start()
        let client = TestClient(emulator: emulator)
        let idle = try TestConnection(port: client.port)
        idle.send(client.requestBytes("GET", "/2/users/me"))
        #expect(idle.readResponse().response?.status == 200)
        let silent = try TestConnection(port: client.port)  // connected, never sends
        let started = Date()
        emulator.stop()
        #expect(Date().timeIntervalSince(started) < 1)
        #expect(idle.isClosedByPeer())
        #expect(silent.isClosedByPeer())
        emulator.stop()  // idempotent
    }

    @Test func controlRoutes() throws {
        try withEmulator { emulator, client in
            let unsigned = TestClient(emulator: emulator, signer: nil)
            let truth = try unsigned.get("/_emulator/truth/mentions", [("dialect", "v1.1")])
            #expect(truth.object["ids"] as? [String] == emulator.groundTruth(.mentions, dialect: .v1_1))
            #expect(try unsigned.get("/_emulator/truth/nope").status == 404)

            let added = try unsigned.send("POST", "/_emulator/tweets", json: #"{"feed":"mentions","count":3}"#)
            let newIDs = try #require(added.object["ids"] as? [String])
            #expect(newIDs.count == 3)
            #expect(Array(emulator.groundTruth(.mentions, dialect: .v2).prefix(3)) == newIDs)

            let fault = try unsigned.send("POST", "/_emulator/faults",
                                          json: #"{"fault":"503","times":1,"path":"mentions"}"#)
            #expect(fault.status == 200)
            #expect(try client.get(homePath).status == 200)
            #expect(try client.get(mentionsPath).status == 503)
            #expect(try unsigned.send("POST", "/_emulator/faults", json: #"{"fault":"bogus"}"#).status == 400)
            _ = try unsigned.send("POST", "/_emulator/faults", json: #"{"fault":"slow","seconds":0.2,"times":1}"#)
            let started = Date()
            #expect(try client.get("/2/users/me").status == 200)
            #expect(Date().timeIntervalSince(started) >= 0.2)

            _ = try unsigned.send("POST", "/_emulator/rate-limits", json: #"{"endpoint":"me","limit":1}"#)
            #expect(try client.get("/2/users/me").status == 429)

            _ = try client.send("POST", "/2/tweets", json: #"{"text":"stats see this"}"#)
            let stats = try unsigned.get("/_emulator/stats")
            #expect(stats.object[path: "requests", "home"] as? Int == 1)
            #expect(stats.object[path: "requests", "mentions"] as? Int == 1)
            #expect(stats.object[path: "requests", "me"] as? Int == 2)
            #expect(stats.object[path: "requests", "post"] as? Int == 1)
            let posted = try #require(stats.object["posted"] as? [[String: Any]])
            #expect(posted.first?["text"] as? String == "stats see this")
            #expect(posted.first?["id"] as? String == emulator.postedStatuses.first?.id)
            #expect(emulator.requestCount(pathContains: "/_emulator") == 0, "control routes are not counted")
            #expect(emulator.requestCount(pathContains: "/2/users/me") == 2)
        }
    }

    @Test func profileImagesArePNGWithETag() throws {
        try withEmulator { emulator, client in
            let page = try client.get(homePath, [("max_results", "5")] + clientFields)
            let users = try #require(page.object[path: "includes", "users"] as? [[String: Any]])
            let url = try #require(users.first?["profile_image_url"] as? String)
            let path = String(url.dropFirst(emulator.baseURL.count))
            let image = try TestClient(emulator: emulator, signer: nil).get(path)
            #expect(image.status == 200)
            #expect(image.header("content-type") == "image/png")
            #expect(Array(image.body.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            let etag = try #require(image.header("etag"))
            let again = try TestClient(emulator: emulator, signer: nil).send("GET", path, headers: [("If-None-Match", etag)])
            #expect(again.status == 304 && again.body.isEmpty)
            let bigger = try TestClient(emulator: emulator, signer: nil).get(path.replacingOccurrences(of: "_normal", with: "_bigger"))
            #expect(bigger.status == 200 && bigger.body.count > image.body.count)
            let head = try TestClient(emulator: emulator, signer: nil).send("HEAD", path)
            #expect(head.status == 200 && head.body.isEmpty)
            #expect(try TestClient(emulator: emulator, signer: nil).get("/profile_images/1/1_normal.png").status == 404)
            #expect(emulator.requestCount(pathContains: "/profile_images/") == 5)
        }
    }

    @Test func malformedRequestsGet400() throws {
        try withEmulator { emulator, client in
            let connection = try TestConnection(port: client.port)
            connection.send("NOT A REQUEST\r\n\r\n")
            #expect(connection.readResponse().response?.status == 400)
            _ = emulator
        }
    }
}

extension TestConnection {
    /// Reads the `100 Continue` line (and its blank line) that precedes the real response.
    func readInterimLine() -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while !(bytes.count >= 4 && Array(bytes.suffix(4)) == [13, 10, 13, 10]) {
            guard recv(fd, &byte, 1, 0) == 1 else { return nil }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
