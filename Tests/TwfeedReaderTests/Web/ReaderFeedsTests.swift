import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import TwfeedTesting

/// Atom for feed readers and Prometheus text for scrapers, each read back with a parser.
@Suite(.serialized)
struct ReaderFeedsTests {
    /// Foundation's XMLParser (libxml2) into a small tree: a well-formedness error fails.
    final class Tree: NSObject, XMLParserDelegate {
        final class Node {
            var name: String
            var attributes: [String: String]
            var text = ""
            var children: [Node] = []
            init(_ name: String, _ attributes: [String: String]) { self.name = name; self.attributes = attributes }
            func all(_ name: String) -> [Node] { children.filter { $0.name == name } }
            func first(_ name: String) -> Node? { children.first { $0.name == name } }
        }

        var stack: [Node] = [Node("#document", [:])]
        var namespaces: [String] = []

        static func parse(_ bytes: [UInt8]) throws -> Node {
            let tree = Tree()
            let parser = XMLParser(data: Data(bytes))
            parser.shouldProcessNamespaces = true
            parser.delegate = tree
            guard parser.parse() else { throw parser.parserError ?? RawHTTP.Failure(description: "XML parse failed") }
            return tree.stack[0].children[0]
        }

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            namespaces.append(namespaceURI ?? "")
            stack.append(Node(name, attributes))
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { stack.last?.text += string }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            let node = stack.removeLast()
            stack.last?.children.append(node)
        }
    }

    @Test func eachFeedIsValidAtomWithStableTagIDsAndEscapedContent() async throws {
        let world = try await ReaderHarness()
        try await world.withReader { reader in
            let answer = try await reader.request("/feeds/home.atom")
            #expect(answer.status == 200 && answer.headers["content-type"] == "application/atom+xml; charset=utf-8")
            let feed = try Tree.parse(answer.body)
            #expect(feed.name == "feed")
            #expect(feed.first("id")?.text == "tag:twfeed.invalid,2026:account/99/home")
            #expect(feed.first("title")?.text == "twfeed: home")
            #expect(feed.first("updated")?.text == "2026-09-21T15:36:42Z", "the newest entry's time")
            #expect(feed.all("link").contains { $0.attributes["rel"] == "self" && $0.attributes["href"] == "http://127.0.0.1:\(reader.port)/feeds/home.atom" })
            let entries = feed.all("entry")
            #expect(entries.count == 50)
            for entry in entries {
                #expect(entry.first("id")?.text.hasPrefix("tag:twitter.com,2006:status/") == true)
                #expect(entry.first("updated").map { $0.text.count == 20 && $0.text.hasSuffix("Z") } == true)
                #expect(entry.first("author")?.first("name")?.text.isEmpty == false)
                #expect(entry.first("content")?.attributes["type"] == "html")
            }
            let hostile = try #require(entries.first { $0.first("id")?.text == "tag:twitter.com,2006:status/\(ReaderHarness.hostileID)" })
            // Once the XML is read, the content is HTML in which the tweet is text.
            #expect(hostile.first("content")?.text == "<p>&lt;img src=x onerror=alert(1)&gt;&lt;script&gt;alert(2)&lt;/script&gt;</p>")
            #expect(hostile.first("author")?.first("name")?.text == #"<b>Bold</b> & "quoted" 'single' (@mallory)"#)
            let control = try #require(entries.first { $0.first("id")?.text == "tag:twitter.com,2006:status/\(ReaderHarness.controlID)" })
            #expect(control.first("content")?.text == "<p>bell\u{FFFD} and form\u{FFFD}feed ]]&gt; end</p>",
                    "a control character XML forbids does not break the feed")
            let links = try #require(entries.first { $0.first("id")?.text == "tag:twitter.com,2006:status/\(ReaderHarness.linkID)" })
            #expect(links.first("content")?.text.contains(#"<a href="https://example.com/a?b=1&amp;c=2" rel="nofollow noopener noreferrer">"#) == true)
            let mentions = try Tree.parse(try await reader.request("/feeds/mentions.atom").body)
            #expect(mentions.all("entry").count == 1)
        }
    }

    @Test func metricsParseAsPrometheusTextWithTheStoredCounts() async throws {
        let world = try await ReaderHarness()
        try await world.withReader { reader in
            let answer = try await reader.request("/metrics")
            #expect(answer.status == 200 && answer.headers["content-type"]?.hasPrefix("text/plain; version=0.0.4") == true)
            let metrics = try PrometheusText(parsing: answer.text)
            #expect(metrics.value("twfeed_tweets", ["feed": "home"]) == 63)
            #expect(metrics.value("twfeed_tweets", ["feed": "mentions"]) == 1)
            #expect(metrics.value("twfeed_images_cached_files") == 1)
            #expect(metrics.value("twfeed_images_cached_bytes") == Double(ReaderHarness.png.count))
            #expect(metrics.value("twfeed_outbox_statuses", ["state": "pending"]) == 0)
            #expect(metrics.value("twfeed_up") == 0, "no daemon runs")
            #expect((metrics.value("twfeed_database_bytes") ?? 0) > 0)
            #expect(metrics.value("twfeed_outbox_sent_total") == 0)
            #expect(metrics.types["twfeed_poll_requests_total"] == "counter")
            #expect(metrics.types["twfeed_tweets"] == "gauge")
        }
    }

    @Test func thePrometheusReaderRejectsWhatTheFormatForbids() {
        #expect(throws: PrometheusText.Failure.self) { try PrometheusText(parsing: "twfeed up 1\n") }
        #expect(throws: PrometheusText.Failure.self) { try PrometheusText(parsing: "twfeed_up{feed=home} 1\n") }
        #expect(throws: PrometheusText.Failure.self) { try PrometheusText(parsing: "# TYPE h histogram\nh_bucket{le=\"1\"} 1\n") }
        #expect(throws: Never.self) { try PrometheusText(parsing: "# TYPE a counter\na_total{x=\"q\\\"\"} 3 1700000000\n") }
    }
}
