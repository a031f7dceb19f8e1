import Foundation
import Synchronization

/// The emulator's state and request handling, apart from the socket server so that the
/// server's handler can hold it without a reference cycle through `Emulator`.
final class EmulatorCore: Sendable {
    let configuration: EmulatorConfiguration
    let state: Mutex<EmulatorState>
    let images = AvatarServer()
    private let verifier: OAuthVerifier

    init(configuration: EmulatorConfiguration) {
        self.configuration = configuration
        let skew = EmulatorState.skew(configuration.clockSkewSeconds)
        var store = TweetStore(
            seed: configuration.seed,
            tweetsPerFeed: configuration.tweetsPerFeed,
            now: configuration.clock().addingTimeInterval(skew),
            extraUsers: configuration.extraUsers
        )
        store.repostsOrder = configuration.repostsOrder
        var initial = EmulatorState(
            store: store,
            limiter: RateLimiter(windowSeconds: configuration.rateLimitWindowSeconds),
            tokens: TokenRegistry(configured: configuration.credentials)
        )
        initial.clockSkewSeconds = skew
        initial.clock = configuration.clock
        initial.duplicateWindowSeconds = max(0, EmulatorState.finite(configuration.duplicateWindowSeconds))
        initial.billing = BillingLedger(configuration.billing)
        initial.vocabulary = configuration.vocabulary
        initial.uploads.expirySeconds = max(0, configuration.mediaExpirySeconds)
        initial.goneDeletion = configuration.goneDeletion
        state = Mutex(initial)
        verifier = OAuthVerifier(
            consumerKey: configuration.credentials.consumerKey,
            consumerSecret: configuration.credentials.consumerSecret,
            timestampTolerance: max(0, configuration.timestampToleranceSeconds)
        )
        // liboauth sets NSS up on its first call, unguarded. Our own calls are serialized,
        // but a client in the same process (twfeed's integration tests) signs behind its
        // own lock: make that first call here, before any server thread exists.
        _ = OAuthSignature.hmacSHA1(base: "warm-up", key: "&")
    }

    // MARK: Handling a request

    func handle(_ request: EmulatorRequest) -> EmulatorResponse {
        if request.path == "/_emulator" || request.path.hasPrefix("/_emulator/") {
            var response = ControlRoutes.handle(request, core: self)
            response.setHeader("Date", EmulatorResponse.httpDate(now))
            return response
        }
        let route = Route(method: request.method, path: request.path)
        return state.withLock { state in
            let now = state.now
            let fault = state.faults.take(path: request.path, method: request.method, isAPI: route.isAPI, endpoint: route.rateLimited)
            var response = answer(route, request, fault: fault, now: now, state: &state)
            if route.isAPI, route.dialect == .v2 { response.body = state.vocabulary.spelled(response.body) }
            if let fault { Self.applyDelivery(fault, to: &response, now: now) }
            var faultName = fault?.controlName
            // A kept-alive connection dropped after the request was processed: the client
            // saw no answer on a reused connection (libcurl then sends it again as it was).
            if route.isAPI, state.keepAliveDrops > 0, request.connectionRequestNumber > state.keepAliveDropAfter {
                state.keepAliveDrops -= 1
                response.delivery = .closeWithoutAnswer
                faultName = faultName ?? "close-kept-alive"
            }
            // The server's clock, so a client can measure its own clock's skew against it.
            response.setHeader("Date", EmulatorResponse.httpDate(now))
            state.record(request, route: route, status: response.status, fault: faultName, now: now)
            return response
        }
    }

    /// The answer before delivery faults: a fault that replaces the answer, or auth, rate
    /// limit and the route's own handler.
    private func answer(
        _ route: Route,
        _ request: EmulatorRequest,
        fault: Fault?,
        now: Date,
        state: inout EmulatorState
    ) -> EmulatorResponse {
        let dialect = route.dialect
        let claimedToken =
            request.header("authorization").flatMap(OAuthHeader.init)?["oauth_token"]
            ?? configuration.credentials.accessToken
        let peek = route.rateLimited.map { state.limiter.peek($0, dialect, token: claimedToken, now: now) }

        // Faults that answer in place of the emulator (the request is not processed).
        switch fault {
        case .status(let code)?:
            var response: EmulatorResponse =
                switch route {
                case .profileImage, .mediaImage: .text(code, EmulatorResponse.reason(code) + "\n")
                default:
                    ErrorBody.status(code, dialect)
                }
            if let peek { response.headers += peek.headers }
            return response
        case .rateLimited?:
            var response = ErrorBody.tooManyRequests(dialect)
            if let endpoint = route.rateLimited {
                response.headers += state.limiter.peek(endpoint, dialect, token: claimedToken, now: now, exhausted: true).headers
            }
            return response
        case .rateLimitedWithoutHeaders?:
            return ErrorBody.tooManyRequests(dialect)
        case .rateLimitedWithPastReset(let secondsAgo)?:
            var response = ErrorBody.tooManyRequests(dialect)
            let limit = route.rateLimited.map { state.limiter.limit($0, dialect) } ?? 15
            // Bounded, so no value handed to the fault can trap here.
            let ago = secondsAgo.isFinite ? min(max(1, secondsAgo), 1e9) : 60
            let reset = Int(now.timeIntervalSince1970.rounded(.down)) - Int(ago)
            response.headers += RateLimitStatus(limit: limit, remaining: 0, reset: reset, allowed: false).headers
            return response
        case .badRateLimitHeader(let value, let header, true)?:
            var response = ErrorBody.tooManyRequests(dialect)
            if let endpoint = route.rateLimited {
                response.headers += state.limiter.peek(endpoint, dialect, token: claimedToken, now: now, exhausted: true).headers
            }
            Self.spoilRateLimitHeaders(&response, value: value, header: header)
            return response
        case .authFailure?:
            var response = ErrorBody.unauthorized(dialect, .couldNotAuthenticate)
            if let peek { response.headers += peek.headers }
            return response
        case .creditsDepleted?, .spendCapReached?, .usageCapExceeded?, .notEnrolled?:
            // The billing side's own bodies, with a healthy window's headers, as it answers.
            let refusal: BillingRefusal =
                switch fault {
                case .spendCapReached?: .spendCapReached(resetDate: BillingCalendar.label(BillingCalendar.day(now) + 1))
                case .usageCapExceeded?: .usageCapExceeded
                case .notEnrolled(let reason, _)?: .notEnrolled(reason)
                default: .creditsDepleted
                }
            var response = ErrorBody.billingRefusal(refusal, dialect, shape: fault?.refusalShape ?? .dialect)
            if let peek { response.headers += peek.headers }
            return response
        default:
            break
        }

        switch route {
        case .notFound(let dialect):
            return ErrorBody.notFound(dialect)
        case .profileImage(let userID, let version, let size):
            return images.response(for: request, user: state.store.user(userID), version: version, size: size)
        case .mediaImage(let id):
            return images.mediaResponse(for: request, media: state.store.mediaByID[id], upload: state.uploads.byID[id])
        case .oauthRequestToken:
            return OAuthRoutes.requestToken(request, verifier: verifier, state: &state, now: now)
        case .oauthAuthorize:
            return OAuthRoutes.authorize(request, state: state)
        case .oauthAccessToken:
            return OAuthRoutes.accessToken(request, verifier: verifier, state: &state, now: now)
        default:
            break
        }

        // The signed API: verify, count against the rate limit, then answer.
        guard let endpoint = route.rateLimited else { return ErrorBody.notFound(dialect) }
        let tokens = state.tokens
        let verified = verifier.verify(
            request,
            defaultHost: state.authority,
            requireToken: true,
            tokenSecret: { tokens.accessSecret($0) },
            nonces: &state.nonces,
            now: now
        )
        let token: String
        switch verified {
        case .success(let result):
            token = result.token ?? ""
        case .failure(let failure):
            var response = ErrorBody.unauthorized(dialect, failure)
            if let peek { response.headers += peek.headers }
            return response
        }
        // The pay-per-use refusals come before the rate limit counts the request: a refused
        // request uses none of the window, and its headers stay those of a healthy window
        // (which is what makes a usage-capped 429 look unlike a rate-limited one).
        let today = BillingCalendar.day(now)
        state.billing.enter(day: today)
        if let refusal = state.billing.refusal(for: endpoint) {
            var response = ErrorBody.billingRefusal(refusal, dialect, shape: state.billing.refusalShape)
            response.headers += state.limiter.peek(endpoint, dialect, token: token, now: now).headers
            return response
        }
        let limit = state.limiter.consume(endpoint, dialect, token: token, now: now)
        var response: EmulatorResponse
        if !limit.allowed {
            // v1.1 reports an exhausted posting limit as 403 code 185, not as a 429.
            response =
                endpoint == .post && dialect == .v1_1
                ? ErrorBody.v11(403, code: 185, message: "User is over daily status update limit.")
                : ErrorBody.tooManyRequests(dialect)
        } else {
            let host = request.header("host").flatMap { $0.isEmpty ? nil : $0 } ?? state.authority
            let context = RequestContext(request: request, now: now, imageBase: "http://" + host, token: token)
            response = dispatch(route, context: context, state: &state)
            // Charged on the answer as computed: a delivery fault applied later (a reset,
            // a truncated body) does not undo work the server did and billed.
            if (200..<300).contains(response.status) {
                state.billing.charge(response.served, endpoint: endpoint, day: today)
            }
        }
        response.headers += limit.headers
        return response
    }

    private func dispatch(_ route: Route, context: RequestContext, state: inout EmulatorState) -> EmulatorResponse {
        switch route {
        case .v2Me: V2Routes.me(context, store: state.store)
        case .v2Home(let user): V2Routes.timeline(.home, userID: user, context: context, store: state.store)
        case .v2Mentions(let user): V2Routes.timeline(.mentions, userID: user, context: context, store: state.store)
        case .v2RepostsOfMe: V2Routes.timeline(.retweets, userID: nil, context: context, store: state.store)
        case .v2OwnPosts(let user): V2Routes.timeline(.ownPosts, userID: user, context: context, store: state.store)
        case .v11UserTimeline: V11Routes.userTimeline(context, store: state.store)
        case .v2Post: V2Routes.post(context, state: &state)
        case .v11Home: V11Routes.timeline(.home, context: context, store: state.store)
        case .v11Mentions: V11Routes.timeline(.mentions, context: context, store: state.store)
        case .v11RetweetsOfMe: V11Routes.timeline(.retweets, context: context, store: state.store)
        case .v11VerifyCredentials: V11Routes.verifyCredentials(context, store: state.store)
        case .v11Update: V11Routes.update(context, state: &state)
        case .v2Lookup: V2Routes.lookup(context, pathID: nil, store: state.store, leavingOut: state.usersLeftOutOfLookups)
        case .v2Tweet(let id): V2Routes.lookup(context, pathID: id, store: state.store, leavingOut: state.usersLeftOutOfLookups)
        case .v2Users: V2Routes.users(context, store: state.store)
        case .v11Lookup: V11Routes.lookup(context, store: state.store)
        case .v11Show: V11Routes.show(context, store: state.store)
        case .v2MediaUpload: V2Routes.uploadMedia(context, state: &state)
        case .v2MediaMetadata: V2Routes.mediaMetadata(context, state: &state)
        case .v2DeletePost(let id): V2Routes.deletePost(id, context: context, state: &state)
        case .v11Destroy(let id): V11Routes.destroy(id, context: context, state: &state)
        default: ErrorBody.notFound(route.dialect)
        }
    }

    /// Faults that spoil an answer already computed (the request was processed).
    private static func applyDelivery(_ fault: Fault, to response: inout EmulatorResponse, now: Date) {
        switch fault {
        case .badRateLimitHeader(let value, let header, false):
            spoilRateLimitHeaders(&response, value: value, header: header)
        case .slow(let seconds):
            response.delay = max(0, seconds)
        case .resetMidBody:
            response.delivery = .resetMidBody
        case .acceptThenReset:
            response.delivery = .resetWithoutAnswer
        case .truncatedJSON:
            if !(200..<300).contains(response.status) { response.status = 200 }
            let body = response.body.isEmpty ? Array("{\"data\":[]}".utf8) : response.body
            response.body = Array(body.prefix(max(1, body.count * 2 / 3)))
        case .malformedJSON:
            if !(200..<300).contains(response.status) { response.status = 200 }
            response.body = Array("{\"data\":[{\"id\":\"1\",\"text\":<html><body>502 Bad Gateway</body></html>".utf8)
        case .status, .rateLimited, .authFailure, .rateLimitedWithoutHeaders, .rateLimitedWithPastReset,
            .badRateLimitHeader, .creditsDepleted, .spendCapReached, .usageCapExceeded, .notEnrolled:
            break
        }
    }

    /// Replaces (or adds) the named `x-rate-limit-*` headers with `value`, verbatim.
    private static func spoilRateLimitHeaders(_ response: inout EmulatorResponse, value: String, header: RateLimitHeader) {
        for name in header.headerNames { response.setHeader(name, value) }
    }

    // MARK: Operations shared by `Emulator` and the control routes

    func addTweets(to feed: EmulatorFeed, count: Int) -> [String] {
        state.withLock { $0.store.addTweets(to: feed, count: count, now: $0.now) }.map { String($0) }
    }

    func addTweet(to feed: EmulatorFeed, text: String, authorName: String?) -> String {
        String(state.withLock { $0.store.addTweet(to: feed, text: text, authorName: authorName, now: $0.now) })
    }

    func addTweet(text: String, authorName: String?, via kind: EmulatedReferenceKind) -> EmulatedReference {
        let made = state.withLock { $0.store.addReferencedTweet(text: text, authorName: authorName, via: kind, now: $0.now) }
        return EmulatedReference(id: String(made.id), original: String(made.original))
    }

    var now: Date { state.withLock { $0.now } }

    func addReplyChain(to feed: EmulatorFeed, depth: Int) -> EmulatedReplyChain? {
        state.withLock { $0.store.addReplyChain(to: feed, depth: depth, now: $0.now) }.map { chain in
            EmulatedReplyChain(id: String(chain.id), ancestors: chain.ancestors.map { String($0) })
        }
    }

    func groundTruth(_ feed: EmulatorFeed, dialect: EmulatorDialect) -> [String] {
        state.withLock { $0.store.groundTruth(feed, dialect) }.map { String($0) }
    }

    func inject(_ fault: Fault, times: Int, pathContains: String?, method: String? = nil, endpoint: EmulatorEndpoint? = nil) {
        state.withLock { $0.faults.add(fault, times: times, pathContains: pathContains, method: method, endpoint: endpoint) }
    }

    func setRateLimit(_ limit: Int, for endpoint: String) {
        state.withLock { $0.limiter.setLimit(limit, for: endpoint) }
    }

    // MARK: Profile images

    func addTweets(to feed: EmulatorFeed, count: Int, by author: UInt64) -> [String]? {
        state.withLock { state -> [UInt64]? in
            guard state.store.user(author) != nil else { return nil }
            return state.store.addTweets(to: feed, count: count, now: state.now, author: author)
        }?.map { String($0) }
    }

    /// A new picture at a new URL; returns the new URL's path.
    func changeProfileImageURL(ofUser id: UInt64) -> String? {
        state.withLock { state -> String? in
            guard state.store.bumpImageVersion(id) != nil, let user = state.store.user(id) else { return nil }
            return AvatarServer.url(for: user, base: "")
        }
    }

    /// A new picture behind the same URL (new ETag and Last-Modified).
    func changeProfileImageBytes(ofUser id: UInt64, custom: (bytes: [UInt8], contentType: String)? = nil) -> Bool {
        guard state.withLock({ $0.store.user(id) }) != nil else { return false }
        images.changeBytes(userID: id, custom: custom, now: now)
        return true
    }

    func profileImagePath(ofUser id: UInt64) -> String? {
        state.withLock { $0.store.user(id) }.map { AvatarServer.url(for: $0, base: "") }
    }

    func profileImageBytes(ofUser id: UInt64, size: ProfileImageSize) -> [UInt8]? {
        state.withLock { $0.store.user(id) }.map { images.currentBytes(for: $0, size: size) }
    }
}
