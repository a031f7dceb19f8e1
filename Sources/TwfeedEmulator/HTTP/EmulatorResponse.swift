import Foundation
import TwfeedBase

/// A response, plus how to deliver it: the emulator's faults are delivery failures
/// (a reset halfway through the body, a reset instead of an answer, a delay). Named apart
/// from TwfeedKit's `HTTPResponse`, as `EmulatorRequest` is.
struct EmulatorResponse: Sendable {
    enum Delivery: Sendable {
        /// Status line, headers and the whole body.
        case complete
        /// Headers announcing the full Content-Length, half the body, then a TCP reset.
        case resetMidBody
        /// No answer at all: the connection is reset (the request was still processed).
        case resetWithoutAnswer
        /// No answer at all: the connection is closed cleanly (a FIN), as a server that
        /// drops a kept-alive connection does (the request was still processed).
        case closeWithoutAnswer
        /// Headers and half the body, a pause of this many seconds (cut short by
        /// `Emulator.stop()`), then the rest: a slow server.
        case stallMidBody(seconds: Double)
        /// No Content-Length: the body, then zeros up to this many bytes in all, then the
        /// connection closes (or stops early when the client goes away).
        case unsized(totalBytes: Int)
    }

    var status: Int
    var headers: [(name: String, value: String)] = []
    var body: [UInt8] = []
    var delivery: Delivery = .complete
    /// Seconds to wait before answering (`Fault.slow`); cut short by `Emulator.stop()`.
    var delay: Double = 0
    /// Close the connection after this response.
    var closeAfter = false
    /// Told how many body bytes went out on the socket (the image counters use it).
    var onBodySent: (@Sendable (Int) -> Void)?
    /// What the answer handed out, for the pay-per-use bill; the API routes fill it in.
    var served = ServedResources()

    init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    static func json(_ status: Int, _ value: EmulatorJSON, contentType: String = "application/json; charset=utf-8") -> EmulatorResponse {
        EmulatorResponse(status: status, headers: [("Content-Type", contentType)], body: value.bytes)
    }

    static func text(_ status: Int, _ text: String, contentType: String = "text/plain; charset=utf-8") -> EmulatorResponse {
        EmulatorResponse(status: status, headers: [("Content-Type", contentType)], body: Array(text.utf8))
    }

    mutating func setHeader(_ name: String, _ value: String) {
        headers.removeAll { $0.name.lowercased() == name.lowercased() }
        headers.append((name, value))
    }

    /// Status line and headers, with the given Content-Length (which may announce more
    /// than will be sent, for `resetMidBody`).
    /// Without a length, the body runs until the connection closes.
    func head(contentLength: Int?, keepAlive: Bool) -> [UInt8] {
        var text = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
        for header in headers where header.name.lowercased() != "content-length" {
            text += "\(header.name): \(header.value)\r\n"
        }
        if let contentLength { text += "Content-Length: \(contentLength)\r\n" }
        // The emulator's handler sets Date from its own (possibly skewed) clock.
        if !headers.contains(where: { $0.name.lowercased() == "date" }) {
            text += "Date: \(Self.httpDate(Date()))\r\n"
        }
        text += "Server: twfeed-emulator\r\n"
        text += keepAlive ? "Connection: keep-alive\r\n" : "Connection: close\r\n"
        text += "\r\n"
        return Array(text.utf8)
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 302: "Found"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 411: "Length Required"
        case 413: "Payload Too Large"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: "Status \(status)"
        }
    }

    /// RFC 7231 IMF-fixdate, e.g. `Sat, 21 Nov 2026 10:00:00 GMT`.
    static func httpDate(_ date: Date) -> String {
        let legacy = Timestamp.twitterDate(date).split(separator: " ")  // Wed Oct 10 20:19:24 +0000 2018
        return "\(legacy[0]), \(legacy[2]) \(legacy[1]) \(legacy[5]) \(legacy[3]) GMT"
    }

    /// Parses an IMF-fixdate (`If-Modified-Since`); nil for anything else.
    static func parseHTTPDate(_ text: String) -> Date? {
        let parts = text.split(separator: " ")
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        guard parts.count == 6, parts[5] == "GMT", let day = Int32(parts[1]),
            let month = months.firstIndex(of: String(parts[2])), let year = Int32(parts[3])
        else { return nil }
        let clock = parts[4].split(separator: ":").compactMap { Int32($0) }
        guard clock.count == 3 else { return nil }
        var broken = tm()
        broken.tm_year = year - 1900
        broken.tm_mon = Int32(month)
        broken.tm_mday = day
        broken.tm_hour = clock[0]
        broken.tm_min = clock[1]
        broken.tm_sec = clock[2]
        let seconds = timegm(&broken)
        return seconds == -1 ? nil : Date(timeIntervalSince1970: Double(seconds))
    }
}
