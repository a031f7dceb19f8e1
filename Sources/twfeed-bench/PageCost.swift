import Foundation
import TwfeedCore
import TwfeedEmulator
import TwfeedKit
import TwfeedSandbox
import TwfeedStore
import TwfeedTesting

/// Where the time of one v2 timeline page goes: the emulator answering over loopback,
/// parsing, mapping to the model, and storing. `twfeed-bench --page-cost`.
enum PageCost {
    static func run() async throws {
        var emulatorConfig = EmulatorConfiguration()
        emulatorConfig.tweetsPerFeed = 3200
        let emulator = Emulator(configuration: emulatorConfig)
        try emulator.start()
        defer { emulator.stop() }
        let credentials = Credentials(emulatorConfig.credentials)
        var config = TwfeedConfig()
        config.api.baseURL = emulator.baseURL
        let runs = 30

        // The emulator answering a 100-tweet page, over loopback through libcurl.
        let signer = OAuthSigner(credentials: credentials, clock: SystemClock())
        let url =
            emulator.baseURL + "/2/users/\(Emulator.accountUserID)/timelines/reverse_chronological?"
            + PercentEncoding.form(
                [("max_results", "100")] + [
                    ("tweet.fields", "created_at,author_id,conversation_id,in_reply_to_user_id,referenced_tweets,entities"),
                    ("expansions", "author_id,referenced_tweets.id,referenced_tweets.id.author_id"),
                    ("user.fields", "name,username,profile_image_url"),
                ]
            )
        let transport = CurlTransport()
        var body: [UInt8] = []
        let fetchStarted = DispatchTime.now()
        for _ in 0..<runs {
            let request = APIRequest(url: url, headers: [("Authorization", signer.authorizationHeader(method: "GET", url: url))])
            body = try await transport.send(request).body
        }
        let fetch = Bench.elapsed(since: fetchStarted) / Double(runs)

        let parseStarted = DispatchTime.now()
        for _ in 0..<runs { _ = try JSONValue.parse(body) }
        let parse = Bench.elapsed(since: parseStarted) / Double(runs)

        let api = TwitterAPIFactory.make(
            config: config,
            credentials: credentials,
            transport: CannedTransport(body: body),
            clock: SystemClock()
        )
        var page: TimelinePage?
        let mapStarted = DispatchTime.now()
        for _ in 0..<runs { page = try await api.timeline(.home, userID: UserID(1), query: TimelineQuery()) }
        let parseAndMap = Bench.elapsed(since: mapStarted) / Double(runs)

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("twfeed-pagecost-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let database = try AppDatabase.open(path: "\(folder)/db.sqlite")
        let storeStarted = DispatchTime.now()
        for _ in 0..<runs { try await database.storePage(page!, feed: .home, state: SyncState(feed: .home), now: Date()) }
        let store = Bench.elapsed(since: storeStarted) / Double(runs)

        print(
            String(
                format: "page cost (%d tweets, %d bytes): emulator+loopback %.2f ms, parse %.2f ms, map %.2f ms, store %.2f ms",
                page!.tweets.count,
                body.count,
                fetch * 1000,
                parse * 1000,
                (parseAndMap - parse) * 1000,
                store * 1000
            )
        )
    }
}
