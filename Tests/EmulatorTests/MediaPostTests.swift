import Foundation
import Testing
import TwfeedEmulator

/// `POST /2/tweets` with `media.media_ids` and with a reply to the account's own post (a
/// thread), and what timelines, lookups and the image host then show of the photos.
@Suite struct MediaPostTests {
    @Test func aPostWithTwoPhotosShowsThemEverywhereByteIdentical() throws {
        try withEmulator { emulator, client in
            let first = TestPhoto.jpeg(width: 1600, height: 900, filler: 40_000)
            let second = TestPhoto.png(width: 640, height: 640)
            let ids = [try client.upload(first, alt: "A harbour at dusk"), try client.upload(second)]
            let posted = try client.post("two photos", mediaIDs: ids)
            #expect(posted.status == 201, "\(posted.text)")
            let id = try #require(posted.object[path: "data", "id"] as? String)
            #expect(emulator.postedStatuses.last?.mediaIDs == ids)

            // v2 home, own posts and lookup: attachments.media_keys and includes.media.
            for (path, query) in [(homePath, [("max_results", "5")]), ("/2/users/\(Emulator.accountUserID)/tweets", [("max_results", "5")]),
                                  ("/2/tweets", [("ids", id)]), ("/2/tweets/\(id)", [])] {
                let page = try client.get(path, query + photoFields)
                #expect(page.status == 200, "\(path)")
                let data = (page.object["data"] as? [[String: Any]])?.first { $0["id"] as? String == id } ?? page.object["data"] as? [String: Any]
                #expect(data?[path: "attachments", "media_keys"] as? [String] == ids.map { "3_" + $0 }, "\(path)")
                let media = try #require(page.object[path: "includes", "media"] as? [[String: Any]], "\(path)")
                #expect(media.map { $0["media_key"] as? String } == ids.map { "3_" + $0 })
                #expect(media[0]["alt_text"] as? String == "A harbour at dusk" && media[1]["alt_text"] == nil)
                #expect(media[0]["width"] as? Int == 1600 && media[0]["height"] as? Int == 900)
                #expect(media[0]["url"] as? String == "\(emulator.baseURL)/media/\(ids[0]).jpg")
                #expect(media[1]["url"] as? String == "\(emulator.baseURL)/media/\(ids[1]).png")
            }
            // The image host: the uploaded bytes with their type.
            for (mediaID, bytes, type, ext) in [(ids[0], first, "image/jpeg", "jpg"), (ids[1], second, "image/png", "png")] {
                let picture = try client.get("/media/\(mediaID).\(ext)")
                #expect(picture.status == 200 && picture.body == bytes && picture.header("content-type") == type)
                #expect(emulator.mediaBytes(path: "/media/\(mediaID).\(ext)") == bytes)
                #expect(try client.get("/media/\(mediaID).gif").status == 404, "only the photo's own extension")
            }
            // v1.1: extended_entities, alt text with include_ext_alt_text.
            let v11 = try client.get("/1.1/statuses/show.json", [("id", id), ("include_ext_alt_text", "true"), ("tweet_mode", "extended")])
            let items = try #require(v11.object[path: "extended_entities", "media"] as? [[String: Any]])
            #expect(items.map { $0["id_str"] as? String } == ids)
            #expect(items[0]["ext_alt_text"] as? String == "A harbour at dusk")
            #expect(items[0]["media_url_https"] as? String == "\(emulator.baseURL)/media/\(ids[0]).jpg")
            #expect(emulator.tweet(id)?.media.map(\.altText) == ["A harbour at dusk", nil])
        }
    }

    @Test func aPostWithPhotosNeedsNoText() throws {
        try withEmulator { emulator, client in
            let id = try client.upload(TestPhoto.gif(width: 50, height: 40))
            let posted = try client.post(nil, mediaIDs: [id])
            #expect(posted.status == 201, "\(posted.text)")
            #expect(emulator.postedStatuses.last?.text == "")
            #expect(try client.send("POST", "/2/tweets", json: #"{"media":{"media_ids":[]}}"#).status == 400)
        }
    }

    @Test func mediaIDsAreCheckedBeforeAnythingIsPosted() throws {
        try withEmulator { emulator, client in
            emulator.setMediaExpiry(seconds: 120)
            let photos = try (0..<5).map { _ in try client.upload(TestPhoto.png(width: 4, height: 4)) }
            let others = try #require(emulator.allTweetIDs(.home).compactMap { emulator.tweet($0) }
                .first { $0.authorID != Emulator.accountUserID && $0.media.contains { $0.type == "photo" } })
            let foreign = String(try #require(others.media.first { $0.type == "photo" }).key.dropFirst(2))
            let refused: [[String]] = [photos, [photos[0], "9"], [foreign], [photos[0], photos[0]], ["3_" + photos[0]]]
            for ids in refused {
                let response = try client.post("refused \(ids.count)", mediaIDs: ids)
                #expect(response.status == 400, "\(ids)")
                #expect(response.object["title"] as? String == "Invalid Request")
            }
            #expect(try client.post("four is the most", mediaIDs: Array(photos.prefix(4))).status == 201)
            emulator.setClockSkew(seconds: 121)
            let expired = try client.post("expired", mediaIDs: [photos[4]])
            #expect(expired.status == 400 && expired.text.contains("expired"))
            // Upload again after expiry: a new id, usable.
            let again = try client.upload(TestPhoto.png(width: 4, height: 4))
            #expect(try client.post("expired, uploaded again", mediaIDs: [again]).status == 201)
            #expect(emulator.postedStatuses.map(\.mediaIDs.count) == [4, 1])
        }
    }

    @Test func aThreadRepliesToTheAccountsOwnPostsEvenWhenRepliesMustBeSummoned() throws {
        try withEmulator { emulator, client in
            emulator.setRepliesRequireSummons(true)
            var parent: String?
            var parts: [String] = []
            for part in 1...3 {
                let photo = try client.upload(TestPhoto.png(width: 20, height: 10 * part), alt: "part \(part)")
                let answer = try client.post("part \(part)/3", mediaIDs: [photo], replyTo: parent)
                #expect(answer.status == 201, "\(answer.text)")
                parent = try #require(answer.object[path: "data", "id"] as? String)
                parts.append(parent!)
            }
            #expect(emulator.tweet(parts[2])?.inReplyToID == parts[1] && emulator.tweet(parts[1])?.inReplyToID == parts[0])
            #expect(emulator.postedStatuses.map(\.inReplyToID) == [nil, parts[0], parts[1]])
            // Another user's post is still refused under the same rule.
            let stranger = try #require(emulator.allTweetIDs(.home).first { emulator.tweet($0)?.authorID != Emulator.accountUserID })
            let refused = try client.send("POST", "/2/tweets", json: #"{"text":"hi","reply":{"in_reply_to_tweet_id":"\#(stranger)"}}"#)
            #expect(refused.status == 403)
        }
    }

    @Test func v11RefusesMediaIDsItsRetiredUploadCouldNotHaveMade() throws {
        try withEmulator { emulator, client in
            let id = try client.upload(TestPhoto.png(width: 4, height: 4))
            let response = try client.send("POST", "/1.1/statuses/update.json", form: [("status", "with a photo"), ("media_ids", id)])
            #expect(response.status == 400)
            #expect((response.object["errors"] as? [[String: Any]])?.first?["code"] as? Int == 324)
            #expect(emulator.postedStatuses.isEmpty)
            #expect(try client.send("POST", "/1.1/media/upload.json", form: [("media_data", "AAAA")]).status == 404)
        }
    }
}
