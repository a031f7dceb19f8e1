import Foundation
import Testing
import TwfeedEmulator

/// The new endpoints under billing and faults as `POST /2/tweets` is: a deletion costs
/// `postDelete`, an upload its (unpublished, 0 by default) price, alt text nothing; the
/// billing refusals stop each; a fault aimed at one endpoint hits only that step.
@Suite struct MediaBillingFaultTests {
    @Test func deletionsUploadsAndAltTextAreBilledAsPriced() throws {
        try withBillingEmulator { emulator, client in
            let id = try client.upload(TestPhoto.png(width: 3, height: 3), alt: "free")
            let post = try client.post("billed", mediaIDs: [id])
            let postID = try #require(post.object[path: "data", "id"] as? String)
            #expect(try client.send("DELETE", "/2/tweets/\(postID)").status == 200)
            let bill = emulator.bill()
            #expect(bill.total.count(.mediaUpload) == 1 && bill.total.micros(.mediaUpload) == 0)
            #expect(bill.total.count(.postDelete) == 1 && bill.total.micros(.postDelete) == 10_000)
            #expect(bill.endpoint(.mediaMetadata).requests == 1 && bill.endpoint(.mediaMetadata).micros == 0)
            #expect(bill.totalMicros == Rate.postCreate + 10_000)

            var prices = emulator.prices
            prices.mediaUpload = 0.002
            emulator.setPrices(prices)
            _ = try client.upload(TestPhoto.png(width: 3, height: 3))
            #expect(emulator.bill().total.micros(.mediaUpload) == 2_000)
        }
    }

    @Test(arguments: ["upload", "metadata", "post", "delete"])
    func creditsDepletedRefusesEachStepAndDoesNothing(_ step: String) throws {
        try withBillingEmulator { emulator, client in
            let photo = try client.upload(TestPhoto.png(width: 3, height: 3))
            let own = try #require(try client.send("POST", "/2/tweets", json: #"{"text":"mine"}"#).object[path: "data", "id"] as? String)
            emulator.setCredits(usd: 0)
            let response: TestResponse =
                switch step {
                case "upload": try client.send("POST", "/2/media/upload", raw: multipartUpload(TestPhoto.png(width: 3, height: 3)))
                case "metadata": try client.send("POST", "/2/media/metadata", json: metadataJSON(photo, alt: "x"))
                case "post": try client.post("refused", mediaIDs: [photo])
                default: try client.send("DELETE", "/2/tweets/\(own)")
                }
            #expect(response.status == 402 && response.object["title"] as? String == "CreditsDepleted", "\(step)")
            #expect(emulator.mediaUploads.count == 1 && emulator.mediaUploads[0].altTextSets == 0)
            #expect(emulator.postedStatuses.count == 1 && emulator.deletions.isEmpty)
        }
    }

    @Test func theSpendCapRefusesADeletionOnceReached() throws {
        try withBillingEmulator { emulator, client in
            let own = try #require(try client.send("POST", "/2/tweets", json: #"{"text":"capped"}"#).object[path: "data", "id"] as? String)
            emulator.setSpendCap(usd: 0.015)
            let refused = try client.send("DELETE", "/2/tweets/\(own)")
            #expect(refused.status == 403 && refused.object["title"] as? String == "SpendCapReached")
            #expect(emulator.deletions.isEmpty)
        }
    }

    @Test func aFaultAimedAtOneEndpointHitsOnlyThatStep() throws {
        try withEmulator { emulator, client in
            emulator.inject(.status(503), endpoint: .mediaMetadata)
            emulator.inject(.creditsDepleted(), endpoint: .delete)
            emulator.inject(.status(500), endpoint: .post)
            let id = try client.upload(TestPhoto.png(width: 3, height: 3))
            #expect(try client.get("/2/tweets", [("ids", "1")]).status == 200, "a lookup is not a post")
            #expect(try client.send("POST", "/2/media/metadata", json: metadataJSON(id, alt: "x")).status == 503)
            #expect(try client.send("POST", "/2/media/metadata", json: metadataJSON(id, alt: "x")).status == 200)
            #expect(try client.post("faulted", mediaIDs: [id]).status == 500)
            #expect(emulator.postedStatuses.isEmpty)
            let post = try client.post("faulted", mediaIDs: [id])
            let postID = try #require(post.object[path: "data", "id"] as? String)
            #expect(try client.send("DELETE", "/2/tweets/\(postID)").status == 402)
            #expect(try client.send("DELETE", "/2/tweets/\(postID)").status == 200)
            #expect(emulator.requests.filter { $0.fault != nil }.map(\.endpoint) == ["mediaMetadata", "post", "delete"])
        }
    }

    @Test func anUploadWhoseAnswerIsLostWasStillMade() throws {
        try withEmulator { emulator, client in
            emulator.inject(.acceptThenReset, endpoint: .mediaUpload)
            let photo = TestPhoto.png(width: 3, height: 3)
            let lost = try client.exchange("POST", "/2/media/upload", raw: multipartUpload(photo))
            guard case .reset = lost else {
                Issue.record("expected a reset, got \(lost)")
                return
            }
            _ = try client.upload(photo)
            let uploads = emulator.mediaUploads
            #expect(uploads.count == 2 && emulator.mediaUploadCounts[uploads[0].sha256] == 2)
        }
    }

    @Test func theFaultControlTakesAnEndpoint() throws {
        try withEmulator { emulator, client in
            var unsigned = client
            unsigned.signer = nil
            let set = try unsigned.send("POST", "/_emulator/faults", json: #"{"fault":"slow","seconds":0.2,"endpoint":"mediaUpload"}"#)
            #expect(set.status == 200)
            #expect(try unsigned.send("POST", "/_emulator/faults", json: #"{"fault":"503","endpoint":"nope"}"#).status == 400)
            #expect(try client.get(homePath).status == 200)
            _ = try client.upload(TestPhoto.png(width: 3, height: 3))
            #expect(emulator.requests.map(\.fault) == [nil, "slow"])
        }
    }
}
