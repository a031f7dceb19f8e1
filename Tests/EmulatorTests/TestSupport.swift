import Foundation
import Testing
import TwfeedEmulator
#if canImport(Glibc)
import Glibc
#endif

/// A response read off the socket, byte for byte.
struct TestResponse {
    let status: Int
    /// Header names in lower case.
    let headers: [String: String]
    let body: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }
    var json: Any? { try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed]) }
    var object: [String: Any] { json as? [String: Any] ?? [:] }
    var array: [[String: Any]] { json as? [[String: Any]] ?? [] }
    func header(_ name: String) -> String? { headers[name.lowercased()] }
    func intHeader(_ name: String) -> Int? { header(name).flatMap { Int($0) } }
}

/// How an exchange ended: a whole response, a reset, or a close before the end.
enum TestOutcome {
    case complete(TestResponse)
    /// ECONNRESET, with whatever arrived before it.
    case reset(received: [UInt8])
    /// End of stream before the response was whole.
    case closedEarly(received: [UInt8])

    var response: TestResponse? {
        if case .complete(let response) = self { return response }
        return nil
    }
}

/// A blocking HTTP/1.1 client on one socket, so tests see exactly what the server sent
/// (a reset, a short body) instead of what a client library makes of it.
final class TestConnection {
    let fd: Int32
    private var buffer: [UInt8] = []

    init(port: Int, receiveTimeout: Int = 15) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var timeout = timeval(tv_sec: receiveTimeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr)
        let result = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(fd)
            throw POSIXError(.ECONNREFUSED)
        }
    }

    deinit { close(fd) }

    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            offset += n
        }
    }

    func send(_ text: String) { send(Array(text.utf8)) }

    /// Reads more bytes: nil at end of stream, or the errno on failure.
    private func fill() -> Int32? {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n > 0 {
            buffer += chunk[0..<n]
            return 0
        }
        return n == 0 ? nil : errno
    }

    /// Reads one response (Content-Length framed, as the emulator always answers).
    func readResponse(isHead: Bool = false) -> TestOutcome {
        var headerEnd: Int?
        while true {
            headerEnd = Self.find(buffer, [13, 10, 13, 10])
            if headerEnd != nil { break }
            switch fill() {
            case 0?: continue
            case nil: return .closedEarly(received: buffer)
            case let code?: return code == ECONNRESET ? .reset(received: buffer) : .closedEarly(received: buffer)
            }
        }
        let head = String(decoding: buffer[0..<headerEnd!], as: UTF8.self)
        let lines = head.components(separatedBy: "\r\n")
        let status = Int(lines[0].split(separator: " ")[1]) ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = isHead ? 0 : Int(headers["content-length"] ?? "0") ?? 0
        let start = headerEnd! + 4
        while buffer.count < start + length {
            switch fill() {
            case 0?: continue
            case nil: return .closedEarly(received: buffer)
            case let code?: return code == ECONNRESET ? .reset(received: buffer) : .closedEarly(received: buffer)
            }
        }
        let body = Array(buffer[start..<(start + length)])
        buffer.removeFirst(start + length)
        if status == 100 { return readResponse(isHead: isHead) }
        return .complete(TestResponse(status: status, headers: headers, body: body))
    }

    /// True when the server has closed (or reset) the connection.
    func isClosedByPeer() -> Bool {
        switch fill() {
        case 0?: return false
        default: return true
        }
    }

    private static func find(_ haystack: [UInt8], _ needle: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for index in 0...(haystack.count - needle.count) where Array(haystack[index..<(index + needle.count)]) == needle {
            return index
        }
        return nil
    }
}

/// Signs requests as a client would, written independently of the emulator's verifier
/// (Foundation's percent-encoding, its own base string); only the HMAC is shared,
/// through `OAuthSignature.hmacSHA1` (liboauth behind the emulator's lock).
struct TestSigner {
    var consumerKey: String
    var consumerSecret: String
    var token: String?
    var tokenSecret: String
    var timestamp: Int?
    var nonce: String?
    /// More protocol parameters, e.g. `oauth_callback` or `oauth_verifier`.
    var extra: [(String, String)] = []

    init(_ credentials: EmulatorCredentials = .demo) {
        consumerKey = credentials.consumerKey
        consumerSecret = credentials.consumerSecret
        token = credentials.accessToken
        tokenSecret = credentials.accessTokenSecret
    }

    static func encode(_ text: String) -> String {
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    func authorization(method: String, url: String, parameters: [(String, String)]) -> String {
        var oauth: [(String, String)] = [
            ("oauth_consumer_key", consumerKey),
            ("oauth_nonce", nonce ?? UUID().uuidString.replacingOccurrences(of: "-", with: "")),
            ("oauth_signature_method", "HMAC-SHA1"),
            ("oauth_timestamp", String(timestamp ?? Int(Date().timeIntervalSince1970))),
            ("oauth_version", "1.0"),
        ]
        if let token { oauth.append(("oauth_token", token)) }
        oauth += extra
        let encoded: [(String, String)] = (parameters + oauth).map { (Self.encode($0.0), Self.encode($0.1)) }
        let sorted = encoded.sorted { (a: (String, String), b: (String, String)) -> Bool in
            a.0 == b.0 ? a.1 < b.1 : a.0 < b.0
        }
        let pairs = sorted.map { $0.0 + "=" + $0.1 }.joined(separator: "&")
        let base = "\(method)&\(Self.encode(url))&\(Self.encode(pairs))"
        let key = Self.encode(consumerSecret) + "&" + Self.encode(tokenSecret)
        let signature = OAuthSignature.hmacSHA1(base: base, key: key)
        return "OAuth " + (oauth + [("oauth_signature", signature)])
            .map { "\(Self.encode($0.0))=\"\(Self.encode($0.1))\"" }.joined(separator: ", ")
    }
}

/// A request body sent as is, with its Content-Type.
struct RawBody {
    let bytes: [UInt8]
    let contentType: String
}

/// A client of one emulator: builds, signs and sends requests.
struct TestClient {
    let emulator: Emulator
    var signer: TestSigner? = TestSigner()

    var port: Int { emulator.port }

    /// The raw request bytes.
    /// `raw`: a body sent as is with its Content-Type (a multipart upload), not signed.
    func requestBytes(_ method: String, _ path: String, query: [(String, String)] = [], form: [(String, String)]? = nil,
                      json: String? = nil, raw: RawBody? = nil, headers: [(String, String)] = [],
                      mutateSigner: ((inout TestSigner) -> Void)? = nil) -> [UInt8] {
        let queryText = query.map { "\(TestSigner.encode($0.0))=\(TestSigner.encode($0.1))" }.joined(separator: "&")
        let target = queryText.isEmpty ? path : path + "?" + queryText
        var body: [UInt8] = []
        var lines = ["\(method) \(target) HTTP/1.1", "Host: 127.0.0.1:\(port)"]
        if let form {
            body = Array(form.map { "\(TestSigner.encode($0.0))=\(TestSigner.encode($0.1))" }.joined(separator: "&").utf8)
            lines.append("Content-Type: application/x-www-form-urlencoded")
        } else if let json {
            body = Array(json.utf8)
            lines.append("Content-Type: application/json")
        } else if let raw {
            body = raw.bytes
            lines.append("Content-Type: " + raw.contentType)
        }
        if var signer {
            mutateSigner?(&signer)
            lines.append("Authorization: " + signer.authorization(
                method: method, url: "http://127.0.0.1:\(port)\(path)", parameters: query + (form ?? [])))
        }
        lines += headers.map { "\($0.0): \($0.1)" }
        if !body.isEmpty || method == "POST" { lines.append("Content-Length: \(body.count)") }
        return Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8) + body
    }

    /// Sends one request on a new connection and reads how it ends.
    func exchange(_ method: String, _ path: String, query: [(String, String)] = [], form: [(String, String)]? = nil,
                  json: String? = nil, raw: RawBody? = nil, headers: [(String, String)] = [],
                  mutateSigner: ((inout TestSigner) -> Void)? = nil) throws -> TestOutcome {
        let connection = try TestConnection(port: port)
        connection.send(requestBytes(method, path, query: query, form: form, json: json, raw: raw, headers: headers,
                                     mutateSigner: mutateSigner))
        return connection.readResponse(isHead: method == "HEAD")
    }

    /// Sends one request and requires a whole response.
    func send(_ method: String, _ path: String, query: [(String, String)] = [], form: [(String, String)]? = nil,
              json: String? = nil, raw: RawBody? = nil, headers: [(String, String)] = [],
              mutateSigner: ((inout TestSigner) -> Void)? = nil,
              sourceLocation: SourceLocation = #_sourceLocation) throws -> TestResponse {
        let outcome = try exchange(method, path, query: query, form: form, json: json, raw: raw, headers: headers,
                                   mutateSigner: mutateSigner)
        return try #require(outcome.response, "expected a complete response, got \(outcome)", sourceLocation: sourceLocation)
    }

    func get(_ path: String, _ query: [(String, String)] = [], sourceLocation: SourceLocation = #_sourceLocation) throws -> TestResponse {
        try send("GET", path, query: query, sourceLocation: sourceLocation)
    }
}

/// The fields twfeed asks for on every v2 timeline request.
let clientFields: [(String, String)] = [
    ("tweet.fields", "created_at,author_id,conversation_id,in_reply_to_user_id,referenced_tweets,entities"),
    ("expansions", "author_id,referenced_tweets.id,referenced_tweets.id.author_id"),
    ("user.fields", "name,username,profile_image_url"),
]

let homePath = "/2/users/\(Emulator.accountUserID)/timelines/reverse_chronological"
let mentionsPath = "/2/users/\(Emulator.accountUserID)/mentions"

/// Starts an emulator on an ephemeral port, runs `body`, and always stops it.
func withEmulator<T>(_ configure: (inout EmulatorConfiguration) -> Void = { _ in },
                     _ body: (Emulator, TestClient) throws -> T) throws -> T {
    var configuration = EmulatorConfiguration()
    configure(&configuration)
    let emulator = Emulator(configuration: configuration)
    try emulator.start()
    defer { emulator.stop() }
    return try body(emulator, TestClient(emulator: emulator))
}

extension [String: Any] {
    subscript(path keys: String...) -> Any? {
        var current: Any? = self
        for key in keys { current = (current as? [String: Any])?[key] }
        return current
    }
}

/// The ids of a v2 page's `data`.
func ids(_ response: TestResponse) -> [String] {
    (response.object["data"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
}
