import CCurl
import Dispatch
import Foundation
import Synchronization
import TwfeedCore

/// HTTP over libcurl, called directly.
///
/// URLSession on Linux grows the process with every request, which a daemon running
/// for months cannot carry. Easy handles are pooled so connections are reused;
/// `curl_easy_perform` blocks, so it runs on a dispatch queue and never on the
/// cooperative pool. Cancellation aborts the transfer from the progress callback.
package final class CurlTransport: APITransport {
    private let idleHandles = Mutex<[Handle]>([])
    private let connectTimeoutSeconds: Double
    private let userAgent: String
    /// Where the proxy variables are read (`ProxyRoute`): the process's, or a test's.
    private let environment: [String: String]

    private static let globalInit: Void = {
        curl_global_init(Int(CURL_GLOBAL_ALL))
    }()

    package init(
        connectTimeoutSeconds: Double = 10,
        userAgent: String = "twfeed/1.0",
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        _ = Self.globalInit
        self.connectTimeoutSeconds = connectTimeoutSeconds
        self.userAgent = userAgent
        self.environment = environment
    }

    package func send(_ request: APIRequest) async throws -> APIResponse {
        guard request.url.hasPrefix("http://") || request.url.hasPrefix("https://") else {
            throw TransportError(.invalidURL, "only http and https are allowed")
        }
        let transfer = Transfer(request: request)
        let handle = takeHandle()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<APIResponse, any Error>) in
                DispatchQueue.global().async { [self] in
                    let result = perform(transfer, on: handle)
                    switch result {
                    case .success:
                        returnHandle(handle)
                    case .failure:
                        handle.close()
                    }
                    continuation.resume(with: result)
                }
            }
        } onCancel: {
            transfer.cancelled.store(true, ordering: .relaxed)
        }
    }

    private func takeHandle() -> Handle {
        idleHandles.withLock { $0.popLast() } ?? Handle()
    }

    private func returnHandle(_ handle: Handle) {
        idleHandles.withLock { handles in
            if handles.count < 8 { handles.append(handle) } else { handle.close() }
        }
    }

    private func perform(_ transfer: Transfer, on handle: Handle) -> Result<APIResponse, any Error> {
        var request = transfer.request
        // Through a proxy twfeed connects only to the proxy, which reaches the host itself.
        let proxy = ProxyRoute.proxy(for: request.url, environment: environment)
        if proxy != nil { request.addressWall = nil }
        // A handle's connection cache keeps connections made under the wall of the
        // requests it served; one under another wall (or none) must not be reused.
        if handle.served, handle.wall != request.addressWall { handle.renew() }
        handle.wall = request.addressWall
        guard let curl = handle.curl else { return .failure(TransportError(.other, "curl_easy_init failed")) }
        curl_easy_reset(curl)
        ccurl_setopt_string(curl, CURLOPT_URL, request.url)
        ccurl_setopt_string(curl, CURLOPT_PROTOCOLS_STR, "http,https")
        // The proxy ProxyRoute read (empty: none), never libcurl's own reading of the environment.
        ccurl_setopt_string(curl, CURLOPT_PROXY, proxy ?? "")
        ccurl_setopt_long(curl, CURLOPT_NOSIGNAL, 1)
        ccurl_setopt_long(curl, CURLOPT_TIMEOUT_MS, Int(request.timeoutSeconds * 1000))
        ccurl_setopt_long(curl, CURLOPT_CONNECTTIMEOUT_MS, Int(min(connectTimeoutSeconds, request.timeoutSeconds) * 1000))
        ccurl_setopt_string(curl, CURLOPT_ACCEPT_ENCODING, "")  // every encoding curl supports, gzip among them
        ccurl_setopt_string(curl, CURLOPT_USERAGENT, userAgent)
        ccurl_setopt_long(curl, CURLOPT_FOLLOWLOCATION, 0)
        ccurl_setopt_off_t(curl, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(request.maxResponseBytes))

        var headerList: UnsafeMutablePointer<curl_slist>? = nil
        for header in request.headers {
            headerList = curl_slist_append(headerList, "\(header.name): \(header.value)")
        }
        // curl would otherwise wait for a 100 Continue before sending larger bodies.
        headerList = curl_slist_append(headerList, "Expect:")
        defer { curl_slist_free_all(headerList) }
        ccurl_setopt_slist(curl, CURLOPT_HTTPHEADER, headerList)

        let body = request.body
        return body.withUnsafeBufferPointer { bodyBuffer -> Result<APIResponse, any Error> in
            switch request.method {
            case .get:
                ccurl_setopt_long(curl, CURLOPT_HTTPGET, 1)
                ccurl_setopt_long(curl, CURLOPT_FRESH_CONNECT, request.freshConnection ? 1 : 0)
                ccurl_setopt_long(curl, CURLOPT_FORBID_REUSE, 0)
            case .post, .delete:
                // A post goes on a connection of its own, never a reused one: when a reused
                // connection dies before any answer, libcurl silently sends the request again
                // on a new one. For a post whose first copy reached the server, that is the
                // status posted twice; the outbox must see the lost answer and settle it.
                // A deletion is a write too: its lost answer is the outbox's to settle.
                ccurl_setopt_long(curl, CURLOPT_FRESH_CONNECT, 1)
                ccurl_setopt_long(curl, CURLOPT_FORBID_REUSE, 1)
                if request.method == .delete { ccurl_setopt_string(curl, CURLOPT_CUSTOMREQUEST, "DELETE") }
                ccurl_setopt_long(curl, CURLOPT_POST, 1)
                ccurl_setopt_off_t(curl, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(bodyBuffer.count))
                ccurl_setopt_pointer(
                    curl,
                    CURLOPT_POSTFIELDS,
                    UnsafeMutableRawPointer(mutating: bodyBuffer.baseAddress ?? UnsafePointer(bitPattern: 1)!)
                )
            }
            let context = Unmanaged.passRetained(transfer)
            defer { context.release() }
            let pointer = context.toOpaque()
            ccurl_setopt_write_function(curl, CURLOPT_WRITEFUNCTION, curlWriteBody)
            ccurl_setopt_pointer(curl, CURLOPT_WRITEDATA, pointer)
            ccurl_setopt_write_function(curl, CURLOPT_HEADERFUNCTION, curlWriteHeader)
            ccurl_setopt_pointer(curl, CURLOPT_HEADERDATA, pointer)
            ccurl_setopt_long(curl, CURLOPT_NOPROGRESS, 0)
            ccurl_setopt_xferinfo_function(curl, curlProgress)
            ccurl_setopt_pointer(curl, CURLOPT_XFERINFODATA, pointer)
            if request.addressWall != nil {
                ccurl_setopt_opensocket_function(curl, curlOpenSocket)
                ccurl_setopt_pointer(curl, CURLOPT_OPENSOCKETDATA, pointer)
            }

            // Whether this handle's connection cache may hold a kept-alive connection:
            // only a handle that finished a transfer before.
            let mayReuse = handle.served && !request.freshConnection
            let code = curl_easy_perform(curl)
            var connects = 0
            ccurl_getinfo_long(curl, CURLINFO_NUM_CONNECTS, &connects)
            if code != CURLE_OK {
                var error = transfer.error(for: code)
                if mayReuse, connects == 0, !transfer.answered, [CURLE_GOT_NOTHING, CURLE_SEND_ERROR, CURLE_RECV_ERROR].contains(code) {
                    error.diedOnReusedConnection = true
                }
                return .failure(error)
            }
            handle.served = true
            var status = 0
            ccurl_getinfo_long(curl, CURLINFO_RESPONSE_CODE, &status)
            return .success(
                APIResponse(status: status, headers: transfer.headers, body: transfer.body, maySentTwice: mayReuse && connects > 0)
            )
        }
    }

    /// One easy handle; its connection cache lets keep-alive connections be reused.
    private final class Handle: @unchecked Sendable {
        private(set) var curl: UnsafeMutableRawPointer?
        /// Whether it finished a transfer (its connection cache may hold a connection).
        var served = false

        /// The wall of the requests it served, under which its cached connections were made.
        var wall: AddressWall?

        init() { curl = curl_easy_init() }

        func close() {
            if let curl { curl_easy_cleanup(curl) }
            curl = nil
        }

        /// A new easy handle in its place: an empty connection cache.
        func renew() {
            close()
            curl = curl_easy_init()
            served = false
        }

        deinit { close() }
    }
}

/// The state of one transfer, shared with curl's C callbacks (which run on the thread
/// that called curl_easy_perform).
final class Transfer: @unchecked Sendable {
    let request: APIRequest
    let cancelled = Atomic<Bool>(false)
    var body: [UInt8] = []
    var headers: [String: String] = [:]
    var tooLarge = false
    /// Whether any of an answer came (a status line or a header): a connection that dies
    /// after that did not die "before any answer", and is not resent.
    var answered = false
    /// The last address the request's `AddressWall` refused a connection to, and why.
    var refused: (address: [UInt8], range: AddressWall.Range)?

    init(request: APIRequest) { self.request = request }

    func error(for code: CURLcode) -> TransportError {
        if cancelled.load(ordering: .relaxed) { return TransportError(.cancelled, "request cancelled") }
        if tooLarge || code == CURLE_FILESIZE_EXCEEDED {
            return TransportError(.responseTooLarge, "response over \(request.maxResponseBytes) bytes")
        }
        if let refused, code == CURLE_COULDNT_CONNECT {
            let range = refused.range
            return TransportError(
                .addressNotAllowed,
                "\(AddressWall.text(of: refused.address)) is in \(range) (\(range.name)), which image fetches may not reach"
            )
        }
        let text = String(cString: curl_easy_strerror(code))
        switch code {
        case CURLE_OPERATION_TIMEDOUT: return TransportError(.timeout, text)
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST: return TransportError(.connectionFailed, text)
        case CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_PARTIAL_FILE, CURLE_GOT_NOTHING:
            return TransportError(.connectionReset, text)
        default: return TransportError(.other, text)
        }
    }
}

/// What libcurl's body and header callbacks share: the transfer behind the context
/// pointer and the bytes handed over. Returns 0 (abort) without either, as curl expects.
private func curlReceive(
    _ data: UnsafeMutablePointer<CChar>?,
    _ size: Int,
    _ count: Int,
    _ context: UnsafeMutableRawPointer?,
    _ handle: (Transfer, UnsafeBufferPointer<UInt8>) -> Int
) -> Int {
    guard let data, let context else { return 0 }
    let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    return data.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
        handle(transfer, UnsafeBufferPointer(start: bytes, count: length))
    }
}

/// libcurl's write callbacks (`CURLOPT_WRITEFUNCTION`, `CURLOPT_HEADERFUNCTION`): the
/// bytes, their size and count, the context pointer.
private typealias CurlWrite = @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int

private let curlWriteBody: CurlWrite = { data, size, count, context in
    curlReceive(data, size, count, context) { transfer, bytes in
        if transfer.body.count + bytes.count > transfer.request.maxResponseBytes {
            transfer.tooLarge = true
            return 0  // anything but `bytes.count` makes curl abort the transfer
        }
        transfer.body.append(contentsOf: bytes)
        return bytes.count
    }
}

private let curlWriteHeader: CurlWrite = { data, size, count, context in
    curlReceive(data, size, count, context) { transfer, bytes in
        transfer.answered = true
        let line = String(decoding: bytes, as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            transfer.headers = [:]  // a new response (after a 100 Continue) starts afresh
        } else if let colon = line.firstIndex(of: ":") {
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
            transfer.headers[name] = value
        }
        return bytes.count
    }
}

private func curlProgress(
    _ context: UnsafeMutableRawPointer?,
    _: curl_off_t,
    _: curl_off_t,
    _: curl_off_t,
    _: curl_off_t
) -> Int32 {
    guard let context else { return 0 }
    let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
    return transfer.cancelled.load(ordering: .relaxed) ? 1 : 0
}

/// libcurl's opensocket callback (`CURLOPT_OPENSOCKETFUNCTION`), set for a request with an
/// `AddressWall`: called with each address libcurl is about to connect to, after DNS, so
/// a rebound name is caught too. A walled address gets no socket (`CURL_SOCKET_BAD`), so
/// no packet goes to it; libcurl tries the host's next address, or fails with
/// `CURLE_COULDNT_CONNECT`.
private let curlOpenSocket: curl_opensocket_callback = { context, purpose, address in
    guard let context, let address else { return CURL_SOCKET_BAD }
    let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
    // Over http(s) libcurl only opens connections (CURLSOCKTYPE_IPCXN); refuse anything else.
    guard purpose == CURLSOCKTYPE_IPCXN, let wall = transfer.request.addressWall else { return CURL_SOCKET_BAD }
    var bytes = [UInt8](repeating: 0, count: 16)
    let length = Int(ccurl_sockaddr_ip(address, &bytes))
    let ip = Array(bytes.prefix(length))
    if let range = wall.range(walling: ip) {
        transfer.refused = (ip, range)
        return CURL_SOCKET_BAD
    }
    return ccurl_open_socket(address)
}
