import Foundation
import Testing
import TwfeedEmulator

/// `POST /2/media/upload`: multipart and JSON base64, the answer's fields read from the
/// bytes, and the refusals (not an image, over 5 MB, a truncated form, missing fields).
@Suite struct MediaUploadTests {
    @Test(arguments: [
        ("png", TestPhoto.png(width: 1200, height: 800), "image/png", 1200, 800),
        ("jpeg", TestPhoto.jpeg(width: 640, height: 480), "image/jpeg", 640, 480),
        ("gif", TestPhoto.gif(width: 320, height: 200), "image/gif", 320, 200),
        ("webp", TestPhoto.webp(width: 1024, height: 768), "image/webp", 1024, 768),
    ])
    func aMultipartUploadAnswersItsIdKeySizeAndImage(_ name: String, _ bytes: [UInt8], _ type: String, _ width: Int, _ height: Int) throws {
        try withEmulator { emulator, client in
            let response = try client.send("POST", "/2/media/upload", raw: multipartUpload(bytes, type: "application/octet-stream"))
            #expect(response.status == 200, "\(response.text)")
            let data = try #require(response.object["data"] as? [String: Any])
            let id = try #require(data["id"] as? String)
            #expect(data["media_key"] as? String == "3_" + id)
            #expect(data["size"] as? Int == bytes.count)
            #expect(data["expires_after_secs"] as? Int == 86_400)
            #expect(data[path: "image", "image_type"] as? String == type)
            #expect(data[path: "image", "w"] as? Int == width && data[path: "image", "h"] as? Int == height)
            let upload = try #require(emulator.mediaUploads.first)
            #expect(upload.id == id && upload.contentType == type && upload.encoding == "multipart" && upload.byteCount == bytes.count)
            #expect(upload.sha256.count == 64)
            #expect(emulator.requests.last?.endpoint == "mediaUpload")
        }
    }

    @Test func jsonBase64AndABase64PartUploadTheSameBytes() throws {
        try withEmulator { emulator, client in
            let photo = TestPhoto.png(width: 10, height: 10)
            let json = try client.send("POST", "/2/media/upload", json: jsonUpload(photo, type: "image/png"))
            #expect(json.status == 200, "\(json.text)")
            let encoded = try client.send("POST", "/2/media/upload", raw: multipartUpload(photo, base64: true))
            #expect(encoded.status == 200, "\(encoded.text)")
            let uploads = emulator.mediaUploads
            #expect(uploads.map(\.encoding) == ["json", "multipart"])
            #expect(uploads[0].sha256 == uploads[1].sha256 && uploads[0].id != uploads[1].id)
            #expect(emulator.mediaUploadCounts == [uploads[0].sha256: 2])
        }
    }

    @Test func aFiveMegabytePhotoIsTakenAndOneByteMoreIsNot() throws {
        try withEmulator { emulator, client in
            let limit = 5 * 1024 * 1024
            let header = TestPhoto.jpeg(width: 4000, height: 3000, filler: 0).count
            let largest = TestPhoto.jpeg(width: 4000, height: 3000, filler: limit - header)
            #expect(largest.count == limit)
            #expect(try client.send("POST", "/2/media/upload", raw: multipartUpload(largest)).status == 200)
            // As base64 JSON the largest photo is about 7 MB: the reader takes it whole.
            #expect(try client.send("POST", "/2/media/upload", json: jsonUpload(largest)).status == 200)
            // As libcurl sends a large body: after `Expect: 100-continue`.
            let expecting = try client.send("POST", "/2/media/upload", raw: multipartUpload(largest), headers: [("Expect", "100-continue")])
            #expect(expecting.status == 200)
            let over = try client.send("POST", "/2/media/upload", raw: multipartUpload(largest + [0]))
            #expect(over.status == 400)
            #expect((over.object["detail"] as? String)?.contains("5242880") == true, "\(over.text)")
            #expect(emulator.mediaUploads.count == 3)
        }
    }

    @Test func aSixMegabyteUploadIsRefusedWithA400EitherWay() throws {
        try withEmulator { emulator, client in
            let six = TestPhoto.png(width: 3000, height: 2000, filler: 6 * 1024 * 1024)
            let multipart = try client.send("POST", "/2/media/upload", raw: multipartUpload(six))
            #expect(multipart.status == 400 && multipart.header("content-type") == "application/problem+json")
            let json = try client.send("POST", "/2/media/upload", json: jsonUpload(six))
            #expect(json.status == 400, "base64 of 6 MB is 8 MB: still read, then refused")
            #expect(emulator.mediaUploads.isEmpty)
            #expect(emulator.bill().total.count(.mediaUpload) == 0)
        }
    }

    @Test func bytesThatAreNoPhotoAreRefusedWhateverTheyClaim() throws {
        try withEmulator { emulator, client in
            let html = Array("<html><body>not a photo</body></html>".utf8)
            for body in [multipartUpload(html, type: "image/png"), multipartUpload(Array("GIF8".utf8))] {
                let response = try client.send("POST", "/2/media/upload", raw: body)
                #expect(response.status == 400)
                #expect((response.object["detail"] as? String)?.contains("not a JPEG, PNG, WebP or GIF") == true)
            }
            let claimed = try client.send("POST", "/2/media/upload", json: jsonUpload(html, type: "image/jpeg"))
            #expect(claimed.status == 400)
            #expect(emulator.mediaUploads.isEmpty)
        }
    }

    @Test func aTruncatedOrMalformedFormIsRefusedAndStoresNothing() throws {
        try withEmulator { emulator, client in
            let whole = multipartUpload(TestPhoto.png(width: 40, height: 30), boundary: "b0undary")
            // Cut before the closing delimiter: part of a file is never taken for the whole.
            for cut in [whole.bytes.count - 8, whole.bytes.count / 2, 30] {
                let truncated = RawBody(bytes: Array(whole.bytes.prefix(cut)), contentType: whole.contentType)
                let response = try client.send("POST", "/2/media/upload", raw: truncated)
                #expect(response.status == 400, "cut at \(cut)")
            }
            let wrongBoundary = RawBody(bytes: whole.bytes, contentType: "multipart/form-data; boundary=other")
            #expect(try client.send("POST", "/2/media/upload", raw: wrongBoundary).status == 400)
            let noBoundary = RawBody(bytes: whole.bytes, contentType: "multipart/form-data")
            #expect(try client.send("POST", "/2/media/upload", raw: noBoundary).status == 400)
            let noPart = RawBody(bytes: Array("--b\r\nContent-Disposition: form-data; name=\"other\"\r\n\r\nx\r\n--b--\r\n".utf8),
                                 contentType: "multipart/form-data; boundary=b")
            let missing = try client.send("POST", "/2/media/upload", raw: noPart)
            #expect(missing.status == 400)
            #expect((missing.object["errors"] as? [[String: Any]])?.first?["message"] as? String == "$.media: is missing but it is required")
            #expect(emulator.mediaUploads.isEmpty)
        }
    }

    @Test func theCategoryIsRequiredAndChecked() throws {
        try withEmulator { emulator, client in
            let photo = TestPhoto.png(width: 8, height: 8)
            let missing = try client.send("POST", "/2/media/upload", raw: multipartUpload(photo, category: nil))
            #expect(missing.status == 400)
            #expect(try client.send("POST", "/2/media/upload", raw: multipartUpload(photo, category: "tweet_video")).status == 400)
            #expect(try client.send("POST", "/2/media/upload", raw: multipartUpload(photo, category: "subtitles")).status == 400)
            // The one-request upload's media_type enum has no image/gif: a GIF goes by its bytes.
            #expect(try client.send("POST", "/2/media/upload", json: jsonUpload(TestPhoto.gif(width: 2, height: 2), type: "image/gif")).status == 400)
            #expect(try client.send("POST", "/2/media/upload", json: jsonUpload(TestPhoto.gif(width: 2, height: 2))).status == 200)
            #expect(try client.send("POST", "/2/media/upload", raw: multipartUpload(photo, category: "dm_image")).status == 200)
            #expect(emulator.mediaUploads.count == 2)
        }
    }

    @Test func anUploadIsSignedLikeAnyRequestWithoutItsBody() throws {
        try withEmulator { emulator, client in
            var unsigned = client
            unsigned.signer = nil
            #expect(try unsigned.send("POST", "/2/media/upload", raw: multipartUpload(TestPhoto.png(width: 2, height: 2))).status == 401)
            let bad = try client.send("POST", "/2/media/upload", raw: multipartUpload(TestPhoto.png(width: 2, height: 2)),
                                      mutateSigner: { $0.tokenSecret = "wrong" })
            #expect(bad.status == 401)
            #expect(emulator.mediaUploads.isEmpty)
        }
    }

    @Test func anUnpostedUploadIsNotOnTheImageHost() throws {
        try withEmulator { emulator, client in
            let id = try client.upload(TestPhoto.png(width: 5, height: 5))
            #expect(try client.get("/media/\(id).png").status == 404)
            #expect(emulator.mediaBytes(path: "/media/\(id).png") == nil)
        }
    }
}
