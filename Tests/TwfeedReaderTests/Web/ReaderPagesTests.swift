import Foundation
import Testing
import TwfeedBilling
import TwfeedReaderTesting
import TwfeedTesting
@testable import TwfeedCore
@testable import TwfeedReader
import TwfeedStatus
@testable import TwfeedStore

/// The web reader's pages as a browser gets them: the timeline, paging, search, and that
/// nothing a tweet carries becomes markup.
@Suite(.serialized)
struct ReaderPagesTests {
    static func ids(_ html: String) -> [Int64] {
        html.components(separatedBy: "<li class=\"tweet\" ").dropFirst().compactMap { item in
            item.range(of: "data-id=\"").flatMap { Int64(item[$0.upperBound...].prefix(while: \.isNumber)) }
        }
    }

    @Test func homeShowsTheNewest50WithAvatarNameTimeAndFeedTags() async throws {
        let world = try await ReaderHarness()
        try await world.withReader { reader in
            let answer = try await reader.request("/home")
            #expect(answer.status == 200)
            #expect(answer.headers["content-type"] == "text/html; charset=utf-8")
            let ids = Self.ids(answer.text)
            #expect(ids.count == 50)
            #expect(ids.first == ReaderHarness.controlID && ids == ids.sorted(by: >))
            #expect(answer.text.contains(#"<img class="avatar" src="/avatars/\#(world.aliceAvatarFile)""#))
            #expect(answer.text.contains(#"src="/static/avatar.svg""#), "mallory's picture is not cached: the placeholder")
            #expect(answer.text.contains(#"<span class="name">Alice Martin</span> <a class="username" href="https://x.com/alice">@alice</a>"#))
            #expect(answer.text.contains(#"<span class="feed-tag feed-home">home</span> <span class="feed-tag feed-mentions">mentions</span>"#) == false,
                    "the newest 50 do not include the one tweet also in mentions")
            #expect(answer.text.contains(#"<time datetime="2026-09-21T"#))
            #expect(answer.text.contains(#"<a rel="next" class="older" href="/home?before=1014">Older</a>"#))
            let mentions = try await reader.request("/mentions")
            #expect(mentions.text.contains(#"<span class="feed-tag feed-home">home</span> <span class="feed-tag feed-mentions">mentions</span>"#))
            #expect(!mentions.text.contains(#"rel="next""#), "one tweet: no older page")
        }
    }

    @Test func pagingBackWithBeforeShowsTheRestAndThenNothing() async throws {
        let world = try await ReaderHarness()
        try await world.withReader { reader in
            let older = try await reader.request("/home?before=1014")
            let rest: [Int64] = (Int64(1001) ... 1013).reversed()
            #expect(Self.ids(older.text) == rest)
            #expect(!older.text.contains(#"rel="next""#))
            let none = try await reader.request("/home?before=1001")
            #expect(Self.ids(none.text).isEmpty && none.text.contains("No older tweets stored."))
            let bad = try await reader.request("/home?before=x%27")
            #expect(bad.status == 400 && bad.text == "before: x' is not a tweet id\n")
        }
    }

    @Test func tweetTextNamesAndLinksAreShownAsTextNeverAsMarkup() async throws {
        let world = try await ReaderHarness()
        try await world.withReader { reader in
            let page = try await reader.request("/home").text
            #expect(page.contains(#"<p class="text">&lt;img src=x onerror=alert(1)&gt;&lt;script&gt;alert(2)&lt;/script&gt;</p>"#))
            #expect(!page.contains("<script"), "the pages carry no script at all")
            #expect(!page.contains("<img src=x"))
            #expect(page.contains(#"<span class="name">&lt;b&gt;Bold&lt;/b&gt; &amp; &quot;quoted&quot; &#39;single&#39;</span>"#))
            #expect(!page.contains("<b>Bold"))
            // The API's links: a javascript: target is never made a link; the others are, escaped.
            #expect(!page.contains("javascript:"))
            #expect(page.contains(#"Links: <a href="https://t.co/js1" rel="nofollow noopener noreferrer">https://t.co/js1</a> and "#),
                    "the short link itself stays, pointing where it is")
            #expect(page.contains(#"<a href="https://example.com/a?b=1&amp;c=2" rel="nofollow noopener noreferrer">example.com/a…</a>"#))
            #expect(page.contains(#"<a href="https://example.com/&quot;onmouseover=&quot;alert(4)" rel="nofollow noopener noreferrer">q&quot;uote</a>"#))
            #expect(!page.contains(#"onmouseover=""#))
        }
    }

    @Test func noTemplateWritesAValueUnescaped() {
        for (name, text) in PageTemplates.sources {
            #expect(!text.contains("{{{") && !text.contains("{{&"), "template \(name)")
            // Only the tweet written by TweetHTML (which escapes each value) goes out as it is.
            #expect(!text.contains("CONTENT_TYPE") || name == "tweetHTML", "template \(name)")
            #expect(!text.contains("<script"), "template \(name)")
        }
    }

    @Test func searchFromTheBoxFindsWordsAndSaysWhatIsWrongWithAQuery() async throws {
        let world = try await ReaderHarness()
        try await world.withReader { reader in
            // A form sends spaces as `+`.
            let found = try await reader.request("/search?q=number+1042+coffee")
            #expect(Self.ids(found.text) == [1042])
            #expect(found.text.contains(#"value="number 1042 coffee""#), "the box keeps the query")
            let from = try await reader.request("/search?q=from%3Amallory")
            #expect(Self.ids(from.text) == [ReaderHarness.controlID, ReaderHarness.linkID, ReaderHarness.hostileID])
            let hostile = try await reader.request("/search?q=%3Cscript%3E%22")
            #expect(hostile.status == 200 && !hostile.text.contains("<script>"))
            let none = try await reader.request("/search?q=zebra")
            #expect(Self.ids(none.text).isEmpty && none.text.contains("No cached tweet matches."))
            let feedOnly = try await reader.request("/search?q=coffee&feed=mentions")
            #expect(Self.ids(feedOnly.text) == [1001])
        }
    }

    @Test func theJSONAPIGivesTheFeedCommandsObjectsWithPaging() async throws {
        let world = try await ReaderHarness()
        try await world.withReader { reader in
            let answer = try await reader.request("/api/feed/home?limit=3&before=1050")
            #expect(answer.status == 200 && answer.headers["content-type"] == "application/json")
            guard case .array(let objects) = try JSONValue.parse(answer.body) else { Issue.record("not an array"); return }
            let images = ImageStore(root: world.config.storage.imageCache)
            let expected = try await world.database.feedItems(.home, limit: 3, before: TweetID(1050),
                                                        avatarPath: images.cachedPath)
            // The objects `feed --json` prints, one a line, in a JSON array.
            var lines: [UInt8] = []
            for item in expected {
                item.appendJSON(to: &lines)
                lines.append(UInt8(ascii: "\n"))
            }
            #expect(objects == (try String(decoding: lines, as: UTF8.self).split(separator: "\n").map { try JSONValue.parse(String($0)) }))
            #expect(objects.first?["author"]?["avatarPath"]?.string == images.path(of: world.aliceAvatarFile))
            let all = try await reader.request("/api/feed/home")
            guard case .array(let page) = try JSONValue.parse(all.body) else { Issue.record("not an array"); return }
            #expect(page.count == 50)
            for bad in ["limit=0", "limit=201", "limit=ten"] {
                let refused = try await reader.request("/api/feed/home?\(bad)")
                #expect(refused.status == 400 && refused.text.hasPrefix("limit: ") && refused.text.split(separator: "\n").count == 1)
            }
        }
    }

    @Test func healthzIs503WithTheStatusObjectWhenNoDaemonRuns() async throws {
        let world = try await ReaderHarness()
        try await world.withReader { reader in
            let answer = try await reader.request("/healthz")
            #expect(answer.status == 503)
            let status = try JSONValue.parse(answer.body)
            #expect(status["daemon"]?["running"] == .bool(false))
            #expect(status["feeds"]?["home"]?["tweets"] == .number("63"))
        }
    }

    /// The header names the health as `status --json` does, and the style sheet colours
    /// that very name.
    @Test func theHeaderShowsNoDaemonInTheColourOfTrouble() async throws {
        let world = try await ReaderHarness()
        try await world.withReader { reader in
            let page = try await reader.request("/home").text
            #expect(page.contains(#"<p class="health health-not-running" title="no heartbeat">daemon not running: showing what is stored</p>"#))
            let css = try await reader.request("/static/style.css").text
            #expect(css.contains(".health-not-running { color: var(--bad); }"))
        }
    }

    /// Inside the daemon the header shows its live status (`StatusBoard`'s snapshot), not
    /// a recount of the store: its counts, its heartbeat, its account.
    @Test func insideTheDaemonTheHeaderShowsTheBoardsSnapshot() async throws {
        let world = try await ReaderHarness()
        let snapshot = Self.boardSnapshot(world)
        try await world.withReader(board: { [snapshot] in snapshot }) { reader in
            let page = try await reader.request("/home").text
            #expect(page.contains(#"<li class="poll">home: 4321 tweets · last poll never</li>"#))
            #expect(page.contains("@from_the_board"))
            #expect(page.contains("daemon running"))
        }
    }

    /// Inside the daemon `/healthz` answers from the board too: its figures (4321 tweets
    /// where the store holds 63), its heartbeat (no status file exists here), and with the
    /// store closed, so a monitor polling it reads nothing. `twfeed serve` reads the store.
    @Test func insideTheDaemonHealthzAnswersFromTheBoardWithTheStoreClosed() async throws {
        let world = try await ReaderHarness()
        let snapshot = Self.boardSnapshot(world)
        let source = try world.source(board: { [snapshot] in snapshot })
        try source.database.connection.close()
        let reader = try ReaderClient(source: source, logger: world.logger)
        let answer = try await reader.request("/healthz")
        #expect(answer.status == 200)
        let status = try JSONValue.parse(answer.body)
        #expect(status["countsFrom"]?.string == "snapshot")
        #expect(status["feeds"]?["home"]?["tweets"] == .number("4321"))
        #expect(status["account"]?["username"]?.string == "from_the_board")
        #expect(status["daemon"]?["pid"] == .number(String(getpid())))

        try await world.withReader { serve in
            let stored = try JSONValue.parse(try await serve.request("/healthz").body)
            #expect(stored["countsFrom"]?.string == "database")
            #expect(stored["feeds"]?["home"]?["tweets"] == .number("63"))
        }
    }

    /// A running daemon's live status as its `StatusBoard` holds it: 4321 home tweets, an
    /// account the store does not have.
    static func boardSnapshot(_ world: ReaderHarness) -> StatusSnapshot {
        let now = Date()
        var snapshot = StatusSnapshot(pid: getpid(), startedAt: now, heartbeatAt: now, dialect: "v2")
        var counts = StatusSnapshot.Counts(at: now, feeds: [:], outbox: [:], oldestPendingAt: nil, imageFiles: 0, imageBytes: 0,
                                           databasePath: world.config.storage.database, databaseBytes: 0)
        counts.feeds[.home] = StatusSnapshot.FeedCounts(enabled: true, stats: FeedStats(tweets: 4321), sync: SyncState(feed: .home))
        counts.account = .init(id: UserID(77), username: "from_the_board")
        snapshot.counts = counts
        return snapshot
    }

    /// The header says what the API has cost, from the ledger, and a billing state that
    /// stops requests.
    @Test func theHeaderShowsTheSpendAndTheBillingState() async throws {
        let world = try await ReaderHarness()
        let now = Date()
        var bill = BillableAnswer(source: .outbox)
        bill.created = [.postCreateWithURL]
        try await world.database.recordSpend(bill, prices: .published, now: now)
        try await world.database.saveBillingStatus(BillingStatus(state: .outOfCredits, since: now, detail: "no credits"))
        try await world.withReader { reader in
            let page = try await reader.request("/home").text
            #expect(page.contains(#"<p class="spend">API spend: $0.200 today · $0.200 this cycle · out_of_credits</p>"#))
        }
    }

    @Test func theRootRedirectsHome() async throws {
        let world = try await ReaderHarness()
        try await world.withReader { reader in
            let answer = try await reader.request("/")
            #expect(answer.status == 303 && answer.headers["location"] == "/home")
        }
    }
}
