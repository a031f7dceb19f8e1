import Foundation
import HTTPTypes
import Hummingbird
import Logging
import TwfeedBase
import TwfeedCore
import TwfeedStatus
import TwfeedStore

/// The reader's routes (INTERFACE.md, "The reader on the web, and metrics"). Every
/// route reads through `ReaderSource`: the store's paged, O(limit) reads and its
/// search, the image cache, the status report.
package enum ReaderRoutes {
    /// A page's tweets, and the most `/api/feed` gives at once.
    static let pageSize = 50
    static let maxLimit = 200

    package static func router(_ source: ReaderSource, logger: Logger) -> Router<ReaderContext> {
        let router = Router(context: ReaderContext.self, options: .autoGenerateHeadEndpoints)
        router.add(middleware: ReaderHeaders(loopbackOnly: !source.config.http.allowRemote, logger: logger))
        router.add(middleware: ReaderAccessGate(access: source.access, clock: source.clock, logger: logger))
        router.get("/") { _, _ in Response(status: .seeOther, headers: [.location: "/home"]) }
        for feed in Feed.allCases {
            router.get("/\(feed.rawValue)") { request, context in try await timeline(feed, request, context, source) }
            router.get("/feeds/\(feed.rawValue).atom") { request, _ in try await atom(feed, request, source) }
            router.get("/api/feed/\(feed.rawValue)") { request, _ in try await api(feed, request, source) }
        }
        router.get("/search") { request, context in try await search(request, context, source) }
        router.get("/tweet/{id}") { request, context in try await conversationPage(request, context, source) }
        router.get("/avatars/**") { _, context in try picture(context.parameters.getCatchAll().joined(separator: "/"), source) }
        router.get("/media/**") { _, context in try picture(context.parameters.getCatchAll().joined(separator: "/"), source) }
        router.get("/static/style.css") { _, _ in asset(StaticAssets.css, type: "text/css; charset=utf-8") }
        router.get("/static/avatar.svg") { _, _ in asset(StaticAssets.avatarSVG, type: "image/svg+xml") }
        router.get("/healthz") { _, _ in try await healthz(source) }
        router.get("/metrics") { _, _ in await metrics(source) }
        router.get("/login") { request, _ in try login(request, source) }
        router.post("/signout") { request, context in try await signOut(request, context, source) }
        router.get("/compose") { request, context in try await composePage(request, context, source) }
        router.post("/compose") { request, context in try await compose(request, context, source) }
        router.get("/outbox") { request, context in try await outboxPage(request, context, source) }
        router.post("/outbox/{id}/{action}") { request, context in try await changeOutbox(request, context, source) }
        return router
    }

    /// The paths that take a POST (every other path answers a POST with 405).
    static func acceptsPost(_ path: String) -> Bool {
        if path == "/compose" || path == "/signout" { return true }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[1] == "outbox" && Int64(parts[2]) != nil && ["cancel", "retry"].contains(parts[3])
    }

    // MARK: Pages

    static func timeline(_ feed: Feed, _ request: Request, _ context: ReaderContext, _ source: ReaderSource) async throws -> Response {
        let query = FormQuery(request.uri.query)
        let before = try tweetID(query["before"], name: "before")
        let now = source.clock.now()
        // The posts, their links, the gaps and the header's counts: one read.
        let read = try await source.database.timelinePage(
            feed,
            limit: pageSize,
            before: before,
            avatarPath: source.avatarHref,
            counts: source.countsRequest(now: now)
        )
        let items = read.content.items
        var model = await page(
            title: feed.rawValue,
            heading: before == nil ? heading(feed) : "\(heading(feed)), older",
            read: read,
            items: items,
            current: "/\(feed.rawValue)",
            context: context,
            source: source,
            now: now
        )
        // What the page shows as not fetched yet is asked for; the next look shows it.
        await source.fetches.request(items.flatMap(\.faults))
        model.atomHref = "/feeds/\(feed.rawValue).atom"
        // Where a recorded gap lies, a marker says what was not read and how to read it.
        let gaps = read.content.gaps.filter { gap in before.map { gap.newerThanID < $0 } ?? true }
        let api = source.config.api
        model.trailingGaps = GapMarker.place(gaps, in: &model.tweets, isLast: items.count < pageSize) {
            GapMarker($0, prices: api.prices, ownsApp: api.ownsApp)
        }
        if items.count == pageSize, let last = items.last { model.olderHref = "/\(feed.rawValue)?before=\(last.tweet.id)" }
        if items.isEmpty {
            model.message = before == nil ? "No tweets stored in this feed yet." : "No older tweets stored."
        }
        return try html(PageTemplates.render(model, withTemplate: "page"))
    }

    /// A switch, not a table: a new feed cannot be added without its heading.
    static func heading(_ feed: Feed) -> String {
        switch feed {
        case .home: "Home"
        case .mentions: "Mentions"
        case .retweets: "Your tweets, retweeted"
        case .posts: "Your posts (from your archive)"
        case .likes: "Your likes (from your archive)"
        }
    }

    static func search(_ request: Request, _ context: ReaderContext, _ source: ReaderSource) async throws -> Response {
        let form = FormQuery(request.uri.query)
        let text = form["q"] ?? ""
        let feed = try form["feed"].map { name in
            guard let feed = Feed(rawValue: name) else {
                throw HTTPError(.badRequest, message: "feed: \(name) is not home, mentions, retweets, posts or likes")
            }
            return feed
        }
        let now = source.clock.now()
        var read = StorePage<[FeedItem]>(content: [], links: [:], counts: nil)
        var message: String?
        if text.trimmingCharacters(in: .whitespaces).isEmpty {
            message = "Search the cached tweets: words (all must match), \"a phrase\", from:username."
        } else {
            do {
                let query = try SearchQuery(parsing: text)
                read = try await source.database.searchPage(
                    query,
                    feed: feed,
                    limit: pageSize,
                    avatarPath: source.avatarHref,
                    counts: source.countsRequest(now: now)
                )
                message = read.content.isEmpty ? "No cached tweet matches." : nil
            } catch let error as TwfeedError {
                message = error.message
            }
        }
        let items = read.content
        var model = await page(
            title: "search",
            heading: text.isEmpty ? "Search" : "Search: \(text)",
            read: read,
            items: items,
            current: "/search",
            context: context,
            source: source,
            now: now
        )
        model.header.query = text
        await source.fetches.request(items.flatMap(\.faults))
        model.message = message
        return try html(PageTemplates.render(model, withTemplate: "page"))
    }

    static func page<Content>(
        title: String,
        heading: String,
        read: StorePage<Content>,
        items: [FeedItem],
        current: String,
        context: ReaderContext,
        source: ReaderSource,
        now: Date
    ) async -> PageModel {
        PageModel(
            title: title,
            heading: heading,
            header: await header(current: current, context: context, source: source, now: now, stored: read.counts),
            message: nil,
            tweets: items.map { RenderedTweet(TweetModel($0, links: read.links, now: now)) }
        )
    }

    /// The pages' links: the feeds, then the pages that post.
    static let navigation = Feed.allCases.map { ("/\($0.rawValue)", $0.rawValue) } + [("/compose", "compose"), ("/outbox", "outbox")]

    /// The header of a signed-in page: who is signed in, the daemon's health and spend.
    ///
    /// - Parameter stored: the counts the page read with its posts (`serve`), nil when
    ///   it read none (inside the daemon, the board's snapshot is shown).
    static func header(current: String, context: ReaderContext, source: ReaderSource, now: Date, stored: StoredCounts?) async -> HeaderModel {
        let (report, account) = await source.headerStatus(now: now, stored: stored)
        // A status that cannot be read is shown as no daemon: the page still shows the store.
        let health = report?.health ?? .notRunning
        let healthText: String
        switch health {
        case .healthy: healthText = "daemon running"
        case .degraded: healthText = report?.snapshot?.signedOut == true ? "daemon signed out" : "daemon degraded"
        case .notRunning: healthText = "daemon not running: showing what is stored"
        }
        let polls = (report?.feeds ?? []).filter { $0.enabled || $0.stats.tweets > 0 }.map { status in
            HeaderModel.Poll(
                feed: status.feed.rawValue,
                tweets: status.stats.tweets,
                lastPoll: status.sync.lastPollAt.map { TimeModel($0, now: now) },
                error: status.sync.lastError?.description
            )
        }
        let signedOut = account == nil || report?.snapshot?.signedOut == true
        return HeaderModel(
            nav: navigation.map { .init(href: $0.0, label: $0.1, current: $0.0 == current) },
            account: signedOut ? nil : account?.username.map { "@\($0)" },
            signedOutText: signedOut ? "signed out: run twfeed login to sign the daemon in to X" : nil,
            accessNote: source.access.mode == .none ? "no sign-in (http.auth is \"none\"): anyone who reaches this address can use it" : nil,
            canSignOut: { if case .session = context.visitor { true } else { false } }(),
            csrf: source.access.formToken(for: context.visitor),
            healthName: health.name,
            healthText: healthText,
            healthDetail: report?.heartbeatAge.map { "last heartbeat \(Int($0)) s ago" } ?? "no heartbeat",
            spendText: report?.spend.map(Self.spendText),
            polls: polls
        )
    }

    /// "API spend: $0.42 today · $3.10 this cycle of $10.00 · out_of_credits".
    static func spendText(_ spend: SpendCounts) -> String {
        var text = "API spend: \(spend.today.formatted) today · \(spend.cycle.formatted) this cycle"
        if let budget = spend.budget { text += " of \(budget.formatted)" }
        if spend.billingState != .ok { text += " · \(spend.billingState.rawValue)" }
        return text + spend.moneyNote
    }

    // MARK: Feeds, API, files

    static func atom(_ feed: Feed, _ request: Request, _ source: ReaderSource) async throws -> Response {
        let read = try await source.database.timelinePage(feed, limit: pageSize, before: nil, avatarPath: { _ in nil }, counts: nil)
        let (items, links) = (read.content.items, read.links)
        let account = try await source.database.account()?.userID.description
        let host = request.head.authority ?? source.config.http.listen?.description ?? "localhost"
        let document = try AtomFeed(feed: feed, account: account, items: items, links: links, origin: "http://\(host)", now: source.clock.now())
        return Response(
            status: .ok,
            headers: [.contentType: "application/atom+xml; charset=utf-8", .cacheControl: "no-cache"],
            body: .init(byteBuffer: ByteBuffer(string: try document.render()))
        )
    }

    static func api(_ feed: Feed, _ request: Request, _ source: ReaderSource) async throws -> Response {
        let query = FormQuery(request.uri.query)
        let before = try tweetID(query["before"], name: "before")
        var limit = pageSize
        if let text = query["limit"] {
            guard let value = Int(text), (1...maxLimit).contains(value) else {
                throw HTTPError(.badRequest, message: "limit: \(text) is not a whole number from 1 to \(maxLimit)")
            }
            limit = value
        }
        // The same objects as `twfeed feed --json`, written as the store steps.
        var out = try await source.database.forEachFeedItem(
            feed,
            limit: limit,
            before: before,
            avatarPath: source.images.cachedPath,
            into: [UInt8(ascii: "[")]
        ) { out, item in
            if out.count > 1 { out.append(UInt8(ascii: ",")) }
            item.appendJSON(to: &out)
        }
        out.append(contentsOf: "]\n".utf8)
        return Response(
            status: .ok,
            headers: [.contentType: "application/json", .cacheControl: "no-cache"],
            body: .init(byteBuffer: ByteBuffer(bytes: out))
        )
    }

    static func picture(_ file: String, _ source: ReaderSource) throws -> Response {
        guard let picture = CachedPicture.read(file, cacheRoot: source.images.root) else {
            throw HTTPError(.notFound, message: "no such cached picture")
        }
        // Named by the hash of its bytes: a file never changes, so it may be kept a year.
        return Response(
            status: .ok,
            headers: [.contentType: picture.contentType, .cacheControl: "public, max-age=31536000, immutable"],
            body: .init(byteBuffer: ByteBuffer(bytes: picture.bytes))
        )
    }

    static func asset(_ text: String, type: String) -> Response {
        Response(
            status: .ok,
            headers: [.contentType: type, .cacheControl: "public, max-age=86400"],
            body: .init(byteBuffer: ByteBuffer(string: text))
        )
    }

    // MARK: Health and metrics

    static func healthz(_ source: ReaderSource) async throws -> Response {
        let report = try await source.health()
        return Response(
            status: report.health == .healthy ? .ok : .serviceUnavailable,
            headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: report.json.serialized + "\n"))
        )
    }

    static func metrics(_ source: ReaderSource) async -> Response {
        let report = try? await source.status()
        let stored = report.map { TwfeedMetrics.StoredCounts(report: $0, up: source.up($0)) } ?? .init()
        return Response(
            status: .ok,
            headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: source.metrics.exposition(stored: stored)))
        )
    }

    // MARK: Helpers

    static func html(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status,
            headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache"],
            body: .init(byteBuffer: ByteBuffer(string: text))
        )
    }

    static func tweetID(_ text: String?, name: String) throws -> TweetID? {
        guard let text else { return nil }
        guard let id = TweetID(text) else { throw HTTPError(.badRequest, message: "\(name): \(text) is not a tweet id") }
        return id
    }
}
