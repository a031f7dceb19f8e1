import Foundation
import Testing
import TwfeedEmulator

/// `GET /_emulator/posted` and `/_emulator/media`: what a test running the daemon as a
/// subprocess reads back (each photo's SHA-256 and alt text, uploads per SHA-256, the
/// deleted flag) and the media settings it changes.
@Suite struct PostedControlTests {
    @Test func thePostedReadTellsPhotosUploadsAndDeletions() throws {
        try withEmulator { emulator, client in
            var unsigned = client
            unsigned.signer = nil
            let photo = TestPhoto.jpeg(width: 300, height: 200)
            let first = try client.upload(photo)
            let second = try client.upload(photo, alt: "The same photo, twice")
            let posted = try client.post("with a photo", mediaIDs: [second])
            let id = try #require(posted.object[path: "data", "id"] as? String)
            let plain = try #require(try client.send("POST", "/2/tweets", json: #"{"text":"plain"}"#).object[path: "data", "id"] as? String)
            #expect(try client.send("DELETE", "/2/tweets/\(plain)").status == 200)

            let read = try unsigned.get("/_emulator/posted")
            #expect(read.status == 200)
            let posts = try #require(read.object["posts"] as? [[String: Any]])
            #expect(posts.map { $0["id"] as? String } == [id, plain])
            #expect(posts.map { $0["deleted"] as? Bool } == [false, true])
            #expect(posts[0]["deletedAt"] is NSNull && posts[1]["deletedAt"] is String)
            let photos = try #require(posts[0]["photos"] as? [[String: Any]])
            let upload = try #require(emulator.mediaUploads.last)
            #expect(photos.count == 1)
            #expect(photos[0]["mediaId"] as? String == second && photos[0]["mediaKey"] as? String == "3_" + second)
            #expect(photos[0]["sha256"] as? String == upload.sha256 && photos[0]["bytes"] as? Int == photo.count)
            #expect(photos[0]["altText"] as? String == "The same photo, twice" && photos[0]["type"] as? String == "image/jpeg")
            #expect(photos[0]["width"] as? Int == 300 && photos[0]["height"] as? Int == 200)
            #expect(photos[0]["url"] as? String == "\(emulator.baseURL)/media/\(second).jpg")
            let uploads = try #require(read.object["uploads"] as? [[String: Any]])
            #expect(uploads.map { $0["mediaId"] as? String } == [first, second])
            #expect(uploads.map { $0["postIds"] as? [String] } == [[], [id]])
            #expect(uploads.map { $0["altTextSets"] as? Int } == [0, 1])
            #expect(uploads[0]["expired"] as? Bool == false && uploads[0]["encoding"] as? String == "multipart")
            #expect(read.object["uploadCounts"] as? [String: Int] == [upload.sha256: 2])
            let deletions = try #require(read.object["deletions"] as? [[String: Any]])
            #expect(deletions.map { $0["id"] as? String } == [plain] && deletions.first?["dialect"] as? String == "v2")
            let stats = try #require(try unsigned.get("/_emulator/stats").object["posted"] as? [[String: Any]])
            #expect(stats.map { $0["mediaIds"] as? [String] } == [[second], []])
            #expect(stats.map { $0["deleted"] as? Bool } == [false, true])
            // A known photo's digest, so the field is SHA-256 and not merely 64 hex digits.
            let known = try client.upload(Array("GIF89a".utf8) + [1, 0, 1, 0])
            #expect(emulator.mediaUploads.first { $0.id == known }?.sha256
                    == "fb6567d497606314a968515ebf9063dcee9fcff777897c384ed8e6a26dbd7190")
        }
    }

    @Test func theMediaControlSetsExpiryAndTheGoneReading() throws {
        try withEmulator { emulator, client in
            var unsigned = client
            unsigned.signer = nil
            #expect(try unsigned.get("/_emulator/media").object["expirySeconds"] as? Int == 86_400)
            let set = try unsigned.send("POST", "/_emulator/media", json: #"{"expirySeconds":5,"goneDeletion":"not-found"}"#)
            #expect(set.status == 200 && set.object["expirySeconds"] as? Int == 5 && set.object["goneDeletion"] as? String == "not-found")
            #expect(emulator.mediaExpirySeconds == 5 && emulator.goneDeletion == .notFound)
            let upload = try client.send("POST", "/2/media/upload", raw: multipartUpload(TestPhoto.png(width: 2, height: 2)))
            #expect(upload.object[path: "data", "expires_after_secs"] as? Int == 5)
            for bad in [#"{"expirySeconds":-1}"#, #"{"expirySeconds":1.5}"#, #"{"goneDeletion":"maybe"}"#, #"{"other":1}"#, "{}"] {
                #expect(try unsigned.send("POST", "/_emulator/media", json: bad).status == 400, "\(bad)")
            }
            #expect(emulator.mediaExpirySeconds == 5)
            let routes = try unsigned.get("/_emulator").object["routes"] as? [String] ?? []
            #expect(routes.contains("GET /_emulator/posted") && routes.contains("POST /_emulator/media"))
        }
    }
}
