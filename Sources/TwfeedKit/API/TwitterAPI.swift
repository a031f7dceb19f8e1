import Foundation
import TwfeedCore

/// One account's view of the API, whichever dialect speaks it.
package protocol TwitterAPI: Sendable {
    var dialect: TwfeedConfig.Dialect { get }

    /// The signed-in user.
    func me() async throws -> Author

    /// One page of a feed. `userID` is the account's own id (v2 puts it in the path).
    func timeline(_ feed: Feed, userID: UserID, query: TimelineQuery) async throws -> TimelinePage

    /// Whether the feed's endpoint honours `since_id` (v2's reposts_of_me does not).
    func supportsSinceID(_ feed: Feed) -> Bool

    /// Posts a status with the photos uploaded as `mediaIDs` (none: text alone); returns
    /// the new tweet's id. v2 `POST /2/tweets` (`media.media_ids`,
    /// `reply.in_reply_to_tweet_id`), v1.1 `statuses/update`.
    func post(text: String, replyTo: TweetID?, mediaIDs: [String]) async throws -> TweetID

    /// Uploads one photo (v2 `POST /2/media/upload`, `media_category` `tweet_image`):
    /// its media id and how many seconds the API keeps it (`expires_after_secs`; nil when
    /// the answer does not say). v1.1's upload is retired: refused without a request.
    func uploadMedia(_ bytes: Data, type mime: String, fileName: String) async throws -> (mediaID: String, expiresAfter: Double?)

    /// Sets an uploaded photo's alt text (v2 `POST /2/media/metadata`); setting it
    /// twice is harmless. v1.1: refused without a request, like the upload.
    func setAltText(mediaID: String, text: String) async throws

    /// Deletes one of the account's own posts: v2 `DELETE /2/tweets/:id`, v1.1
    /// `POST statuses/destroy/:id.json`.
    func deleteTweet(_ id: TweetID) async throws

    /// The account's own most recent tweets, newest first: one page (v2
    /// `GET /2/users/:id/tweets`, 100; v1.1 `statuses/user_timeline`, 200), which is how
    /// the outbox settles a status whose answer was lost. With `sinceID`, only posts with
    /// a larger id (`since_id`, exclusive): the ids are the server's clock, so this asks
    /// for "posted after" without comparing clocks, and an empty answer costs nothing.
    /// The whole page (with its authors and referenced posts), since the API bills all
    /// of it. v2 asks for `note_tweet` too, so a long post's whole text is in `rawJSON`.
    func ownPosts(userID: UserID, sinceID: TweetID?) async throws -> TimelinePage

    /// One page of the account's own originals (not its reposts), newest first, with each
    /// post's repost count (`TimelinePage.retweetCounts`), paged with `query.pageToken`
    /// from the newest through the endpoint's reach. Owned reads when the account owns
    /// the app: a fifth of what reposts_of_me costs per post.
    func ownOriginals(userID: UserID, query: TimelineQuery) async throws -> TimelinePage

    /// Whether answers may leave the authors out (v2 timelines ask for no `author_id`
    /// expansion: every user in `includes.users` is billed, and most are already stored;
    /// and an answer that expands them may still omit one), so the caller looks up the
    /// ones it lacks with `users(ids:)` (`AuthorLookup`). v1.1 embeds the user in every
    /// status and cannot leave it out usefully.
    var authorsOnRequest: Bool { get }

    /// Users by id (v2 `GET /2/users?ids=`, 1-100 ids, at the user read price); unknown
    /// ids are left out.
    func users(ids: [UserID]) async throws -> (authors: [Author], rateLimit: RateLimit?)

    /// Posts by id: what a tweet points at (a reply's parent, a quoted post, a reposted
    /// original) and `twfeed fetch`. v2 `GET /2/tweets?ids=` (everything expanded: the
    /// authors, what the posts point at, photos), v1.1 `statuses/lookup` with `map=true`.
    /// The found posts are `page.tweets` (newest first) with their authors and media;
    /// `unavailable` holds the ids the API says are gone, with its reason. Ids are sent
    /// once each; no ids: no request. At most `LookupResult.maxIDs` (100) distinct ids,
    /// a precondition: one call is one request and one answer, which the caller charges
    /// whole to `.lookups` (`BillingTerms.bill(lookup:)`), so the caller batches.
    func tweets(ids: [TweetID]) async throws -> LookupResult
}

extension ClosedRange where Bound == Int {
    func clamped(_ value: Int) -> Int { Swift.min(Swift.max(value, lowerBound), upperBound) }
}

extension TwfeedConfig.Dialect {
    /// How many posts one page of `feed` may ask for in this dialect: the budget sizes a
    /// page within these bounds.
    package func pageBounds(_ feed: Feed) -> ClosedRange<Int> {
        switch self {
        case .v2: V2Client.pageBounds(feed)
        case .v1_1: V11Client.pageBounds(feed)
        }
    }
}

extension TwitterAPI {
    /// A status of text alone (see `post(text:replyTo:mediaIDs:)`).
    package func post(text: String, replyTo: TweetID?) async throws -> TweetID {
        try await post(text: text, replyTo: replyTo, mediaIDs: [])
    }

    /// The own posts alone (see `ownPosts`).
    func ownTweets(userID: UserID) async throws -> [Tweet] {
        try await ownPosts(userID: userID, sinceID: nil).tweets
    }

    /// The latest own posts, whatever their id (see `ownPosts(userID:sinceID:)`).
    func ownPosts(userID: UserID) async throws -> TimelinePage {
        try await ownPosts(userID: userID, sinceID: nil)
    }
}

extension APIError {
    /// The API says this status was already posted (v1.1 code 187, v2's 403 "duplicate
    /// content"): an earlier attempt got through even if its answer was lost.
    package var isDuplicateStatus: Bool {
        code == 187 || (status == 403 && message.lowercased().contains("duplicate"))
    }
}

/// Signs and sends requests for both dialects, and turns answers that are not a
/// success into `APIError`s.
struct SignedRequester: Sendable {
    let transport: any APITransport
    let signer: OAuthSigner
    let baseURL: String
    let timeoutSeconds: Double

    /// GET `path` with the query parameters, returning the parsed body and the rate limit.
    ///
    /// A read whose kept-alive connection died is sent again once, at once, signed
    /// afresh (a new nonce and timestamp) on a new connection: when the transport says
    /// the connection died under it (`TransportError.diedOnReusedConnection`), or when a
    /// 401 answers a request that may have gone out twice (`APIResponse.maySentTwice`:
    /// libcurl resent it by itself, same headers, same nonce, and the server refused
    /// the replayed nonce). Without this, one dropped connection cost a poll the 401
    /// backoff (minutes) for credentials that are fine. A read changes nothing on the
    /// server, so sending it again is safe; a post is never sent again here (`post`).
    func get(_ path: String, query: [(String, String)]) async throws -> (JSONValue, RateLimit?, APIResponse) {
        let queryText = PercentEncoding.form(query)
        let url = baseURL + path + (queryText.isEmpty ? "" : "?" + queryText)
        var request = signedGet(url)
        let response: APIResponse
        do {
            let first = try await transport.send(request)
            if first.status == 401, first.maySentTwice {
                request = signedGet(url)
                request.freshConnection = true
                response = try await transport.send(request)
            } else {
                response = first
            }
        } catch let error as TransportError where error.diedOnReusedConnection {
            request = signedGet(url)
            request.freshConnection = true
            return try await send(request)
        } catch let error as TransportError {
            if error.kind == .cancelled { throw CancellationError() }
            throw APIError.transport(error)
        }
        return try Self.answer(response)
    }

    /// A GET of `url` with a new signature (nonce, timestamp) each call.
    private func signedGet(_ url: String) -> APIRequest {
        APIRequest(
            method: .get,
            url: url,
            headers: [("Authorization", signer.authorizationHeader(method: "GET", url: url)), ("Accept", "application/json")],
            timeoutSeconds: timeoutSeconds
        )
    }

    /// POST with a form body (signed), a multipart body or a JSON body (neither signed:
    /// OAuth 1.0a signs only form-encoded bodies).
    func post(
        _ path: String,
        form: [(String, String)]? = nil,
        multipart: MultipartBody? = nil,
        json: String? = nil
    ) async throws -> (JSONValue, RateLimit?, APIResponse) {
        let url = baseURL + path
        var headers: [(name: String, value: String)] = [("Accept", "application/json")]
        var body: [UInt8] = []
        if let form {
            headers.append(("Authorization", signer.authorizationHeader(method: "POST", url: url, formBody: form)))
            headers.append(("Content-Type", "application/x-www-form-urlencoded"))
            body = Array(PercentEncoding.form(form).utf8)
        } else if let multipart {
            headers.append(("Authorization", signer.authorizationHeader(method: "POST", url: url)))
            headers.append(("Content-Type", multipart.contentType))
            body = multipart.bytes
        } else {
            headers.append(("Authorization", signer.authorizationHeader(method: "POST", url: url)))
            headers.append(("Content-Type", "application/json"))
            body = Array((json ?? "{}").utf8)
        }
        let request = APIRequest(method: .post, url: url, headers: headers, body: body, timeoutSeconds: timeoutSeconds)
        return try await send(request)
    }

    /// DELETE `path`, signed, without a body: a write, never sent twice here.
    func delete(_ path: String) async throws -> (JSONValue, RateLimit?, APIResponse) {
        let url = baseURL + path
        let headers: [(name: String, value: String)] = [
            ("Accept", "application/json"), ("Authorization", signer.authorizationHeader(method: "DELETE", url: url)),
        ]
        return try await send(APIRequest(method: .delete, url: url, headers: headers, timeoutSeconds: timeoutSeconds))
    }

    private func send(_ request: APIRequest) async throws -> (JSONValue, RateLimit?, APIResponse) {
        let response: APIResponse
        do {
            response = try await transport.send(request)
        } catch let error as TransportError {
            if error.kind == .cancelled { throw CancellationError() }
            throw APIError.transport(error)
        }
        return try Self.answer(response)
    }

    /// The parsed body of a success; an `APIError` for anything else.
    private static func answer(_ response: APIResponse) throws -> (JSONValue, RateLimit?, APIResponse) {
        guard (200..<300).contains(response.status) else { throw APIError.from(response) }
        let rateLimit = RateLimit(headers: response.headers)
        do {
            return (try JSONValue.parse(response.body), rateLimit, response)
        } catch let error as JSONValue.ParseError {
            throw APIError.malformed("\(error)", status: response.status, rateLimit: rateLimit)
        }
    }
}

/// Builds the client the config names.
package enum TwitterAPIFactory {
    package static func make(
        config: TwfeedConfig,
        credentials: Credentials,
        transport: any APITransport,
        clock: any WallClock
    ) -> any TwitterAPI {
        let requester = SignedRequester(
            transport: transport,
            signer: OAuthSigner(credentials: credentials, clock: clock),
            baseURL: config.api.resolvedBaseURL,
            timeoutSeconds: config.api.timeoutSeconds
        )
        switch config.api.dialect {
        case .v2: return V2Client(requester: requester)
        case .v1_1: return V11Client(requester: requester)
        }
    }
}
