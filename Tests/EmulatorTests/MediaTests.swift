import Foundation
import Testing
import TwfeedEmulator

/// Photos, videos and GIFs on some posts, deterministic from the seed: v2 gives them in
/// `includes.media` only with `expansions=attachments.media_keys` (and only the
/// `media.fields` asked), v1.1 in `extended_entities.media` (alt text only with
/// `include_ext_alt_text=true`); the image host serves every picture at its size.
@Suite struct MediaTests {
    static let mediaFields = ("media.fields", "url,preview_image_url,alt_text,width,height,type")
    static let withMedia: [(String, String)] = [
        ("tweet.fields", "created_at,author_id,referenced_tweets"),
        ("expansions", "referenced_tweets.id,attachments.media_keys,referenced_tweets.id.attachments.media_keys"),
        mediaFields,
    ]

    /// Home's posts that carry media, newest first, with what the emulator stored.
    static func decorated(_ emulator: Emulator, among ids: [String]) -> [PublicTweet] {
        ids.compactMap { emulator.tweet($0) }.filter { !$0.media.isEmpty }
    }

    @Test func seededPostsCarryPhotosVideosAndGIFsTheSameForASeed() throws {
        var configuration = EmulatorConfiguration()
        let start = Date()
        configuration.clock = { start }
        let a = Emulator(configuration: configuration), b = Emulator(configuration: configuration)
        let all = EmulatorFeed.allCases.flatMap { a.allTweetIDs($0) }
        let media = all.compactMap { a.tweet($0) }.flatMap(\.media)
        #expect(Set(media.map(\.type)) == ["photo", "video", "animated_gif"])
        #expect(media.contains { $0.altText != nil } && media.contains { $0.altText == nil })
        #expect(all.compactMap { a.tweet($0)?.media }.filter { $0.count > 1 }.isEmpty == false, "some posts have several photos")
        #expect(all.map { a.tweet($0)?.media } == all.map { b.tweet($0)?.media })
        let share = Double(Self.decorated(a, among: a.allTweetIDs(.home)).count) / Double(a.allTweetIDs(.home).count)
        #expect(share > 0.03 && share < 0.3, "some posts, not most: \(share)")
        for item in media {
            let prefix = ["photo": "3_", "video": "7_", "animated_gif": "16_"][item.type]!
            #expect(item.key.hasPrefix(prefix))
        }
    }

    @Test func v2GivesMediaOnlyWhenExpandedWithTheFieldsAsked() throws {
        try withEmulator { emulator, client in
            let page = try client.get(homePath, [("max_results", "100")] + Self.withMedia)
            #expect(page.status == 200)
            let data = try #require(page.object["data"] as? [[String: Any]])
            let media = try #require(page.object[path: "includes", "media"] as? [[String: Any]])
            let byKey = Dictionary(uniqueKeysWithValues: media.map { ($0["media_key"] as! String, $0) })
            let stored = Self.decorated(emulator, among: data.compactMap { $0["id"] as? String })
            #expect(!stored.isEmpty)
            for tweet in stored {
                let object = try #require(data.first { $0["id"] as? String == tweet.id })
                #expect(object[path: "attachments", "media_keys"] as? [String] == tweet.media.map(\.key))
                for item in tweet.media {
                    let served = try #require(byKey[item.key], "\(item.key) in includes.media")
                    #expect(served["type"] as? String == item.type)
                    #expect(served["width"] as? Int == item.width && served["height"] as? Int == item.height)
                    #expect(served["alt_text"] as? String == item.altText)
                    let picture = item.type == "photo" ? served["url"] : served["preview_image_url"]
                    #expect(picture as? String == emulator.baseURL + item.path)
                    #expect(served[item.type == "photo" ? "preview_image_url" : "url"] == nil)
                }
            }
            // What the page points at (includes.tweets) brings its media along with
            // referenced_tweets.id.attachments.media_keys, and only with it.
            let included = page.object[path: "includes", "tweets"] as? [[String: Any]] ?? []
            let pointedAt = Self.decorated(emulator, among: included.compactMap { $0["id"] as? String })
            #expect(!pointedAt.isEmpty)
            for original in pointedAt {
                #expect(original.media.allSatisfy { byKey[$0.key] != nil })
                let object = included.first { $0["id"] as? String == original.id }
                #expect(object?[path: "attachments", "media_keys"] as? [String] == original.media.map(\.key))
            }
            let dataOnly = try client.get(homePath, [
                ("max_results", "100"), ("tweet.fields", "created_at"),
                ("expansions", "referenced_tweets.id,attachments.media_keys"), Self.mediaFields,
            ])
            let dataKeys = Set((dataOnly.object[path: "includes", "media"] as? [[String: Any]] ?? []).compactMap { $0["media_key"] as? String })
            #expect(dataKeys == Set(stored.flatMap(\.media).map(\.key)))
            let referencedOnly = pointedAt.flatMap(\.media).map(\.key).filter { !dataKeys.contains($0) }
            #expect(!referencedOnly.isEmpty)

            let plain = try client.get(homePath, [("max_results", "100")] + clientFields)
            #expect(plain.object[path: "includes", "media"] == nil)
            #expect((plain.object["data"] as? [[String: Any]] ?? []).allSatisfy { $0["attachments"] == nil })

            let few = try client.get(
                homePath,
                [("max_results", "100"), ("expansions", "attachments.media_keys"), ("media.fields", "url")]
            )
            let bare = try #require(few.object[path: "includes", "media"] as? [[String: Any]])
            #expect(bare.allSatisfy { $0["alt_text"] == nil && $0["width"] == nil && $0["media_key"] != nil && $0["type"] != nil })
            #expect(try client.get(homePath, [("media.fields", "colour")]).status == 400)
        }
    }

    @Test func v2MediaCostNothing() throws {
        try withBillingEmulator { emulator, client in
            let page = try client.get(homePath, [
                ("max_results", "100"), ("tweet.fields", "created_at,author_id,referenced_tweets,attachments"),
                ("expansions", "author_id,referenced_tweets.id,attachments.media_keys"), ("user.fields", "username"),
                Self.mediaFields,
            ])
            #expect(page.object[path: "includes", "media"] != nil)
            let served = V2Resources(page)
            let bill = emulator.bill()
            #expect(bill.total.count(.postRead) == served.allPosts.count)
            #expect(bill.total.micros == served.allPosts.count * Rate.postRead + Set(served.users).count * Rate.userRead)
        }
    }

    @Test func v11GivesExtendedEntitiesAndAltTextOnlyWhenAsked() throws {
        try withEmulator { emulator, client in
            let asked = try v11HomePage(client, count: 200, extra: [("include_ext_alt_text", "true")])
            let stored = Self.decorated(emulator, among: asked.array.compactMap { $0["id_str"] as? String })
            #expect(!stored.isEmpty)
            for tweet in stored {
                let status = try #require(asked.array.first { $0["id_str"] as? String == tweet.id })
                let media = try #require(status[path: "extended_entities", "media"] as? [[String: Any]])
                #expect(media.count == tweet.media.count)
                #expect((status[path: "entities", "media"] as? [[String: Any]])?.count == 1, "entities.media holds the first")
                for (served, item) in zip(media, tweet.media) {
                    let id = try #require(served["id_str"] as? String)
                    #expect(item.key.hasSuffix("_" + id))
                    #expect(served["type"] as? String == item.type)
                    #expect(served["media_url_https"] as? String == emulator.baseURL + item.path)
                    #expect(served[path: "sizes", "large", "w"] as? Int == item.width)
                    #expect(served[path: "sizes", "large", "h"] as? Int == item.height)
                    #expect(served[path: "original_info", "width"] as? Int == item.width)
                    #expect(served.keys.contains("ext_alt_text"))
                    #expect(served["ext_alt_text"] as? String == item.altText)
                }
            }
            let unasked = try v11HomePage(client, count: 200)
            let all = unasked.array.compactMap { $0[path: "extended_entities", "media"] as? [[String: Any]] }.flatMap { $0 }
            #expect(!all.isEmpty && all.allSatisfy { !$0.keys.contains("ext_alt_text") })
        }
    }

    @Test func theImageHostServesEachPictureAtItsSize() throws {
        try withEmulator { emulator, client in
            let media = Self.decorated(emulator, among: emulator.allTweetIDs(.home)).flatMap(\.media)
            for type in ["photo", "video", "animated_gif"] {
                guard let item = media.first(where: { $0.type == type }) else { continue }
                let answer = try client.send("GET", item.path)
                #expect(answer.status == 200 && answer.header("content-type") == "image/png")
                #expect(Array(answer.body.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
                func word(_ offset: Int) -> Int { answer.body[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
                #expect(word(16) == item.width && word(20) == item.height, "\(item.path)")
                #expect(emulator.mediaBytes(path: item.path) == answer.body)
                let etag = try #require(answer.header("etag"))
                #expect(try client.send("GET", item.path, headers: [("If-None-Match", etag)]).status == 304)
            }
            #expect(media.contains { $0.type == "photo" })
            #expect(try client.send("GET", "/media/1.png").status == 404)
            #expect(try client.send("GET", "/media/abc.png").status == 404)
            // Bad answers by path, as for profile pictures.
            let photo = try #require(media.first { $0.type == "photo" })
            emulator.serveBadImage(.wrongType, pathContains: "/media/")
            #expect(try client.send("GET", photo.path).header("content-type")?.hasPrefix("text/html") == true)
            emulator.clearBadImages()
            #expect(try client.send("GET", photo.path).status == 200)
        }
    }
}
