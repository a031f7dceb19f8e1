import Foundation
import Synchronization
import TwfeedBase

/// Unsigned routes under `/_emulator/` for the demo and for tests that run the daemon as
/// a subprocess (and so cannot call `Emulator` directly). They are not API requests: they
/// are neither recorded, rate limited nor faulted.
///
/// - `GET  /_emulator` lists these routes.
/// - `GET  /_emulator/truth/:feed?dialect=v2|v1.1` → `{"ids":[...]}` (newest first).
/// - `POST /_emulator/tweets` `{"feed":"home","count":10}` → `{"ids":[...]}`; with a `"text"`
///   (and optionally an `"authorName"`), one tweet with exactly that text →
///   `{"id":"...","username":"..."}` (see `Emulator.addTweet(to:text:authorName:)`); with
///   `"via":"quote|repost"` too (home only), that tweet is in no timeline and a followed
///   account's quote or repost of it joins home → `{"id":"<the quote or repost>",
///   "username":"...","original":"<the tweet with the text>","originalUsername":"..."}`
///   (see `Emulator.addTweet(text:authorName:via:)`).
/// - `POST /_emulator/faults` `{"fault":"503","times":1,"path":"reverse_chronological","method":"GET","seconds":5}`
///   (`method` optional: `POST` to hit posts only where lookups share the path;
///   `endpoint` optional: an `EmulatorEndpoint` such as `mediaUpload`, `mediaMetadata`,
///   `post` or `delete`, in either dialect); `DELETE /_emulator/faults` clears them.
/// - `POST /_emulator/rate-limits` `{"endpoint":"home","limit":5}`.
/// - `GET  /_emulator/stats` → request counts per endpoint and path, and the posted statuses
///   (with their `mediaIds` and whether they were `deleted`).
/// - `GET  /_emulator/pin?oauth_token=...` → `{"pin":"..."}` (what the authorize page shows).
/// - `POST /_emulator/images` `{"user":"<id>","action":"change-url"}` (→ `{"url":...}`),
///   `"change-bytes"`, or `"bad"` with `"bad":"wrong-type|mismatched-type|oversize|
///   oversize-unannounced|redirect-disallowed|redirect-loop|slow"` (and `"seconds"`), for
///   a `"user"` or a `"path"`; `DELETE /_emulator/images` ends the bad answers.
/// - `GET  /_emulator/clock` → `{"now":"<ISO 8601>","skewSeconds":N}`; `POST /_emulator/clock`
///   `{"skewSeconds":-120}` sets the server's clock that far from this machine's.
/// - `POST /_emulator/duplicate-window` `{"seconds":60}` (0: no duplicate check).
/// - `GET  /_emulator/vocabulary` → `{"vocabulary":"tweet|post"}`; `POST /_emulator/vocabulary`
///   `{"vocabulary":"post"}`: the names v2 answers give a post's fields (`EmulatorVocabulary`).
/// - `POST /_emulator/long-posts` `{"allowed":true}`: posts up to 25,000 (weighted), kept
///   whole as v2 `note_tweet` (X Premium).
/// - `POST /_emulator/drop-kept-alive` `{"afterRequests":1,"times":1}`: the next `times` API
///   requests arriving on a connection after its first `afterRequests` are processed,
///   then the connection closed with no answer.
/// - `POST /_emulator/retweet-old` `{}` or `{"id":"<tweet id>"}` → `{"id":"<retweeted tweet>"}`.
/// - `GET  /_emulator/own-tweets` → `{"ids":[...]}`: the account's own tweets, newest first.
/// - `POST /_emulator/own-reposts` `{"count":100}` → `{"ids":[...]}`: the account reposts
///   that many posts by others now (`Emulator.repostAsAccount`).
/// - `GET  /_emulator/bill` → what the pay-per-use API charged (totals, cycle, days newest
///   first, by endpoint, credits left); `DELETE /_emulator/bill` forgets the charges.
/// - `POST /_emulator/reply-chain` `{"feed":"home|mentions","depth":5}` → `{"id":"...",
///   "ancestors":["<parent>",…,"<root>"]}`: a conversation whose ancestors are in no
///   timeline, answered by a post that joins the feed (`Emulator.addReplyChain`).
/// - `POST /_emulator/delete` `{"id":"...","reason":"deleted|protected|suspended"}`: the
///   post is gone; lookups report it so (`Emulator.deleteTweet`).
/// - `GET  /_emulator/tweets/:id` → the stored post (`Emulator.tweet`): text, long text,
///   references, media (`path` on this host, size, alt text), why it is gone.
/// - `POST /_emulator/lookups-leave-out` `{"user":"<id>","leaveOut":true}`: v2 lookups by id
///   leave the user out of `includes.users` (`Emulator.leaveUserOutOfLookups`).
/// - `GET  /_emulator/billing` → the billing settings; `POST /_emulator/billing` with any of
///   `{"creditsUSD":5|null,"spendCapUSD":…,"usageCapPostReads":…,"cycleStartDay":1-28,
///   "notEnrolled":{"home":"client-not-enrolled"|null,…},"repliesRequireSummons":true,
///   "ownsApp":false,"prices":{"postRead":0.005,…}}` (checked whole: a 400 changes nothing).
/// - `GET  /_emulator/posted` → what clients posted (each photo's SHA-256 and alt text, a
///   deleted flag), every upload, uploads per SHA-256, the deletions (`ControlRoutes.posted`).
/// - `GET  /_emulator/media`, `POST /_emulator/media` `{"expirySeconds":60,"goneDeletion":"deleted-false|not-found"}`:
///   `expires_after_secs` of later uploads, and how deleting a gone post answers.
enum ControlRoutes {
    static func handle(_ request: EmulatorRequest, core: EmulatorCore) -> EmulatorResponse {
        let parts = request.path.split(separator: "/").map(String.init).dropFirst()  // drop "_emulator"
        switch (request.method, Array(parts)) {
        case ("GET", []), ("HEAD", []):
            return .json(
                200,
                .object([
                    (
                        "routes",
                        .array(
                            [
                                "GET /_emulator/truth/:feed?dialect=v2|v1.1", "POST /_emulator/tweets", "POST /_emulator/faults",
                                "DELETE /_emulator/faults", "POST /_emulator/rate-limits", "GET /_emulator/stats",
                                "GET /_emulator/pin?oauth_token=...", "POST /_emulator/images", "DELETE /_emulator/images",
                                "GET /_emulator/clock", "POST /_emulator/clock", "POST /_emulator/duplicate-window",
                                "GET /_emulator/vocabulary", "POST /_emulator/vocabulary",
                                "POST /_emulator/long-posts", "POST /_emulator/drop-kept-alive",
                                "POST /_emulator/retweet-old", "GET /_emulator/own-tweets", "POST /_emulator/own-reposts",
                                "GET /_emulator/bill",
                                "DELETE /_emulator/bill", "GET /_emulator/billing", "POST /_emulator/billing",
                                "POST /_emulator/reply-chain", "POST /_emulator/delete", "GET /_emulator/tweets/:id",
                                "POST /_emulator/lookups-leave-out",
                                "GET /_emulator/posted", "GET /_emulator/media", "POST /_emulator/media",
                            ].map(EmulatorJSON.string)
                        )
                    )
                ])
            )
        case ("GET", let path) where path.count == 2 && path[0] == "truth":
            guard let feed = EmulatorFeed(rawValue: path[1]) else { return error(404, "unknown feed \(path[1])") }
            let dialectName = request.query("dialect") ?? "v2"
            guard let dialect = EmulatorDialect(rawValue: dialectName) else {
                return error(400, "dialect must be v2 or v1.1")
            }
            return ids(core.groundTruth(feed, dialect: dialect))
        case ("POST", ["tweets"]):
            guard let body = JSONBody.object(request.body), let feedName = body["feed"] as? String,
                let feed = EmulatorFeed(rawValue: feedName)
            else {
                return error(400, "expected {\"feed\":\"home|mentions|retweets\",\"count\":N}")
            }
            if body["text"] != nil || body["authorName"] != nil {
                return addTweet(body, feed: feed, core: core)
            }
            let count = (body["count"] as? NSNumber)?.intValue ?? 1
            guard (0...10_000).contains(count) else { return error(400, "count must be 0...10000") }
            return ids(core.addTweets(to: feed, count: count))
        case ("POST", ["faults"]):
            guard let body = JSONBody.object(request.body), let name = body["fault"] as? String ?? (body["fault"] as? NSNumber)?.stringValue,
                let fault = Fault(
                    controlName: name,
                    seconds: (body["seconds"] as? NSNumber)?.doubleValue,
                    value: body["value"] as? String,
                    header: body["header"] as? String,
                    shape: body["shape"] as? String
                )
            else {
                return error(
                    400,
                    "expected {\"fault\":\"503|500|slow|reset|truncated|malformed|429|auth|accept-then-reset|"
                        + "429-no-headers|429-past-reset|bad-header|429-bad-header|credits-depleted|spend-cap-reached|"
                        + "usage-cap-exceeded|not-enrolled\",\"times\":1,\"path\":\"...\",\"seconds\":5,"
                        + "\"value\":\"inf\",\"header\":\"limit|remaining|reset|all\","
                        + "\"shape\":\"\(EmulatorRefusalShape.allCases.map(\.rawValue).joined(separator: "|"))\","
                        + "\"endpoint\":\"\(EmulatorEndpoint.allCases.map(\.rawValue).joined(separator: "|"))\"}"
                )
            }
            var endpoint: EmulatorEndpoint?
            if let name = body["endpoint"] {
                guard let value = (name as? String).flatMap(EmulatorEndpoint.init(rawValue:)) else {
                    return error(400, "endpoint must be one of \(EmulatorEndpoint.allCases.map(\.rawValue).joined(separator: "|"))")
                }
                endpoint = value
            }
            let times = (body["times"] as? NSNumber)?.intValue ?? 1
            core.inject(fault, times: times, pathContains: body["path"] as? String, method: body["method"] as? String, endpoint: endpoint)
            return .json(200, .object([("ok", .bool(true)), ("fault", .string(fault.controlName)), ("times", .int(times))]))
        case ("DELETE", ["faults"]):
            core.state.withLock { $0.faults.removeAll() }
            return .json(200, .object([("ok", .bool(true))]))
        case ("POST", ["rate-limits"]):
            guard let body = JSONBody.object(request.body), let endpoint = body["endpoint"] as? String,
                let limit = (body["limit"] as? NSNumber)?.intValue
            else {
                return error(400, "expected {\"endpoint\":\"home|mentions|retweets|post|me\",\"limit\":N}")
            }
            core.setRateLimit(limit, for: endpoint)
            return .json(200, .object([("ok", .bool(true))]))
        case ("POST", ["images"]):
            return images(request, core: core)
        case ("DELETE", ["images"]):
            core.images.clearBad()
            return .json(200, .object([("ok", .bool(true))]))
        case ("GET", ["clock"]):
            return clock(core)
        case ("POST", ["clock"]):
            guard let body = JSONBody.object(request.body), let skew = (body["skewSeconds"] as? NSNumber)?.doubleValue,
                skew.isFinite
            else {
                return error(400, "expected {\"skewSeconds\":N}")
            }
            core.state.withLock { $0.clockSkewSeconds = EmulatorState.skew(skew) }
            return clock(core)
        case ("POST", ["duplicate-window"]):
            guard let body = JSONBody.object(request.body), let seconds = (body["seconds"] as? NSNumber)?.doubleValue,
                seconds.isFinite, seconds >= 0
            else {
                return error(400, "expected {\"seconds\":N} (0 or more; 0 turns the duplicate check off)")
            }
            core.state.withLock { $0.duplicateWindowSeconds = seconds }
            return .json(200, .object([("ok", .bool(true)), ("seconds", .number(String(seconds)))]))
        case ("GET", ["vocabulary"]):
            return vocabulary(core)
        case ("POST", ["vocabulary"]):
            guard let body = JSONBody.object(request.body), let name = body["vocabulary"] as? String,
                let vocabulary = EmulatorVocabulary(rawValue: name)
            else {
                return error(400, "expected {\"vocabulary\":\"tweet|post\"}")
            }
            core.state.withLock { $0.vocabulary = vocabulary }
            return self.vocabulary(core)
        case ("POST", ["long-posts"]):
            guard let body = JSONBody.object(request.body), let number = body["allowed"] as? NSNumber,
                String(cString: number.objCType) == "c"
            else {
                return error(400, "expected {\"allowed\":true|false}")
            }
            let allowed = number.boolValue
            core.state.withLock { $0.longPostsAllowed = allowed }
            return .json(200, .object([("ok", .bool(true)), ("allowed", .bool(allowed))]))
        case ("POST", ["drop-kept-alive"]):
            let body = JSONBody.object(request.body) ?? [:]
            let after = (body["afterRequests"] as? NSNumber)?.intValue ?? 1
            let times = (body["times"] as? NSNumber)?.intValue ?? 1
            guard after >= 1, times >= 0 else { return error(400, "expected {\"afterRequests\":1 or more,\"times\":0 or more}") }
            core.state.withLock {
                $0.keepAliveDropAfter = after
                $0.keepAliveDrops = times
            }
            return .json(200, .object([("ok", .bool(true)), ("afterRequests", .int(after)), ("times", .int(times))]))
        case ("POST", ["retweet-old"]):
            let body = JSONBody.object(request.body) ?? [:]
            let requested = body["id"] as? String
            let original = requested.flatMap(UInt64.init)
            if requested != nil, original == nil { return error(400, "expected {\"id\":\"<tweet id>\"} or {}") }
            guard let id = core.state.withLock({ $0.store.retweetOld(original, now: $0.now) }) else {
                return error(404, "no such original tweet of the account")
            }
            return .json(200, .object([("ok", .bool(true)), ("id", .string(String(id)))]))
        case ("POST", ["own-reposts"]):
            let count = (JSONBody.object(request.body)?["count"] as? NSNumber)?.intValue ?? 1
            guard (1...1_000).contains(count) else { return error(400, "expected {\"count\":1...1000}") }
            return ids(core.state.withLock { $0.store.repostAsAccount(count: count, now: $0.now) }.map { String($0) })
        case ("GET", ["own-tweets"]):
            return ids(core.state.withLock { $0.store.reachableOwnTweets() }.map { String($0) })
        case ("POST", ["reply-chain"]):
            return replyChain(request, core: core)
        case ("POST", ["delete"]):
            return delete(request, core: core)
        case ("POST", ["lookups-leave-out"]):
            return leaveOutOfLookups(request, core: core)
        case ("GET", let path) where path.count == 2 && path[0] == "tweets":
            return tweet(path[1], core: core)
        case ("GET", ["posted"]):
            return posted(core)
        case ("GET", ["media"]):
            return media(nil, core: core)
        case ("POST", ["media"]):
            return media(request, core: core)
        case ("GET", ["bill"]):
            return bill(core)
        case ("DELETE", ["bill"]):
            core.state.withLock { $0.billing.resetTally() }
            return .json(200, .object([("ok", .bool(true))]))
        case ("GET", ["billing"]):
            return billingSettings(core)
        case ("POST", ["billing"]):
            return updateBilling(request, core: core)
        case ("GET", ["stats"]):
            return .json(200, stats(core))
        case ("GET", ["pin"]):
            guard let token = request.query("oauth_token"), let pin = core.state.withLock({ $0.tokens.pin(token) }) else {
                return error(404, "unknown request token")
            }
            return .json(200, .object([("pin", .string(pin))]))
        default:
            return error(404, "no control route \(request.method) \(request.path)")
        }
    }

    /// One tweet with a given text (and author name).
    private static func addTweet(_ body: [String: Any], feed: EmulatorFeed, core: EmulatorCore) -> EmulatorResponse {
        let usage = "expected {\"feed\":\"home|mentions|retweets\",\"text\":\"...\",\"authorName\":\"...\",\"via\":\"quote|repost\"}"
        guard let text = body["text"] as? String else { return error(400, usage) }
        guard !text.isEmpty, text.unicodeScalars.count <= 10_000 else {
            return error(400, "text must have 1 to 10000 characters")
        }
        let authorName = body["authorName"] as? String
        if body["authorName"] != nil, authorName?.isEmpty != false { return error(400, "authorName must be a non-empty string") }
        if authorName != nil, feed == .retweets {
            return error(400, "authorName does not apply to retweets (they are the account's own tweets)")
        }
        func username(_ id: String) -> String? {
            UInt64(id).flatMap { number in core.state.withLock { $0.store.publicTweet(number)?.authorUsername } }
        }
        if let via = body["via"] {
            let kinds = EmulatedReferenceKind.allCases.map(\.rawValue).joined(separator: "|")
            guard let kind = (via as? String).flatMap(EmulatedReferenceKind.init(rawValue:)), feed == .home else {
                return error(400, "via must be \(kinds), with the feed home")
            }
            let made = core.addTweet(text: text, authorName: authorName, via: kind)
            return .json(
                200,
                .object([
                    ("id", .string(made.id)), ("username", .stringOrNull(username(made.id))),
                    ("original", .string(made.original)), ("originalUsername", .stringOrNull(username(made.original))),
                ])
            )
        }
        let id = core.addTweet(to: feed, text: text, authorName: authorName)
        return .json(200, .object([("id", .string(id)), ("username", .stringOrNull(username(id)))]))
    }

    private static func images(_ request: EmulatorRequest, core: EmulatorCore) -> EmulatorResponse {
        let usage =
            "expected {\"user\":\"<id>\",\"action\":\"change-url|change-bytes|bad\",\"bad\":\"\(BadImage.controlNames.joined(separator: "|"))\",\"seconds\":30} (or \"path\" instead of \"user\" for bad)"
        guard let body = JSONBody.object(request.body), let action = body["action"] as? String else { return error(400, usage) }
        let user = (body["user"] as? String).flatMap(UInt64.init)
        switch action {
        case "change-url":
            guard let user, let path = core.changeProfileImageURL(ofUser: user) else { return error(404, "unknown user") }
            let authority = core.state.withLock { $0.authority }
            return .json(200, .object([("ok", .bool(true)), ("url", .string("http://\(authority)\(path)"))]))
        case "change-bytes":
            guard let user, core.changeProfileImageBytes(ofUser: user) else { return error(404, "unknown user") }
            return .json(200, .object([("ok", .bool(true))]))
        case "bad":
            guard let name = body["bad"] as? String,
                let bad = BadImage(controlName: name, seconds: (body["seconds"] as? NSNumber)?.doubleValue)
            else {
                return error(400, usage)
            }
            let path = body["path"] as? String
            guard user != nil || path != nil else { return error(400, usage) }
            core.images.serveBad(bad, userID: user, pathContains: path)
            return .json(200, .object([("ok", .bool(true)), ("bad", .string(bad.controlName))]))
        default:
            return error(400, usage)
        }
    }

    private static func clock(_ core: EmulatorCore) -> EmulatorResponse {
        let (now, skew) = core.state.withLock { ($0.now, $0.clockSkewSeconds) }
        return .json(200, .object([("now", .string(Timestamp.iso8601Milliseconds(now))), ("skewSeconds", .number(String(skew)))]))
    }

    private static func vocabulary(_ core: EmulatorCore) -> EmulatorResponse {
        .json(200, .object([("vocabulary", .string(core.state.withLock { $0.vocabulary }.rawValue))]))
    }

    private static func ids(_ ids: [String]) -> EmulatorResponse {
        .json(200, .object([("ids", .array(ids.map(EmulatorJSON.string)))]))
    }

    static func error(_ status: Int, _ message: String) -> EmulatorResponse {
        .json(status, .object([("error", .string(message))]))
    }

    private static func stats(_ core: EmulatorCore) -> EmulatorJSON {
        core.state.withLock { state in
            var byEndpoint: [String: Int] = [:]
            var byPath: [String: Int] = [:]
            for record in state.records {
                byEndpoint[record.endpoint, default: 0] += 1
                byPath[record.path, default: 0] += 1
            }
            var requests: [(String, EmulatorJSON)] = [("total", .int(state.records.count))]
            for name in EmulatorEndpoint.allCases.map(\.rawValue) + ["oauth", "images", "unknown"] {
                requests.append((name, .int(byEndpoint[name] ?? 0)))
            }
            let posted: [EmulatorJSON] = state.posted.map { status in
                .object([
                    ("id", .string(status.id)), ("text", .string(status.text)),
                    ("inReplyToId", .stringOrNull(status.inReplyToID)), ("dialect", .string(status.dialect.rawValue)),
                    ("createdAt", .string(Timestamp.iso8601Milliseconds(status.createdAt))),
                    ("mediaIds", .array(status.mediaIDs.map(EmulatorJSON.string))), ("deleted", .bool(status.deletedAt != nil)),
                ])
            }
            let feeds: [(String, EmulatorJSON)] = EmulatorFeed.allCases.map { feed in
                (feed.rawValue, .int(state.store.allVisible(feed).count))
            }
            return .object([
                ("requests", .object(requests)),
                ("paths", .object(byPath.sorted { $0.key < $1.key }.map { ($0.key, EmulatorJSON.int($0.value)) })),
                ("faultsPending", .int(state.faults.pending)),
                ("imageBodyBytesSent", .int(core.images.bodyBytesSent.load(ordering: .relaxed))),
                ("feeds", .object(feeds)),
                ("posted", .array(posted)),
            ])
        }
    }
}
