/// The whole answer to an `APIRequest`: status, headers and body.
package struct APIResponse: Sendable {
    package var status: Int
    /// Lowercased names; the last value wins for repeated headers.
    package var headers: [String: String]
    package var body: [UInt8]
    /// The request may have gone out twice with the same headers: it was first sent on a
    /// reused keep-alive connection and the answer came on a new one. libcurl does that
    /// by itself when a reused connection dies before any answer ("Connection died,
    /// retrying a fresh connect"); to a server that saw the first copy, the second
    /// replays its OAuth nonce (401). Set by `CurlTransport`: a handle that had served a
    /// transfer before (its connection cache may hold a live connection) and made a new
    /// connection during this one (`CURLINFO_NUM_CONNECTS` > 0). It cannot tell that
    /// retry from a dead cached connection noticed before sending, so it may say true
    /// for a request sent once: it is only a reason to sign a 401'd read afresh.
    package var maySentTwice: Bool

    package init(status: Int, headers: [String: String] = [:], body: [UInt8] = [], maySentTwice: Bool = false) {
        self.status = status
        self.headers = headers
        self.body = body
        self.maySentTwice = maySentTwice
    }

    package var bodyText: String { String(decoding: body, as: UTF8.self) }
}
