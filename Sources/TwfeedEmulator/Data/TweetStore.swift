import Foundation
import TwitterText

/// Every user, tweet and timeline of the emulated network. Not thread-safe by itself:
/// `Emulator` keeps it inside its state lock.
struct TweetStore: Sendable {
    /// The account user ("me"): every access token the emulator accepts belongs to it.
    static let accountID: UInt64 = 1_700_000_000_000_000_001
    static let accountUsername = "twfeed_demo"
    static let accountName = "twfeed demo"
    /// One second in snowflake id units (milliseconds shifted left by 22 bits), so that
    /// ids grow with time the way real ones do.
    static let idUnitsPerSecond: UInt64 = 1000 << 22

    private(set) var users: [UInt64: EmulatedUser] = [:]
    /// Users in creation order; index 0 is the account user.
    private(set) var userIDs: [UInt64] = []
    private var userIDsByName: [String: UInt64] = [:]
    /// Users made for a given display name (`addUser(displayName:)`), by that name.
    private var userIDsByDisplayName: [String: UInt64] = [:]
    private(set) var tweets: [UInt64: StoredTweet] = [:]
    /// Each feed's tweet ids, oldest first (ascending).
    private(set) var feeds: [EmulatorFeed: [UInt64]] = [.home: [], .mentions: [], .retweets: []]
    /// The account user's newest status per text, for duplicate detection (by id, so the
    /// time the window is measured from moves with `shiftAllDates`).
    private var myTexts: [String: UInt64] = [:]
    /// Every tweet the account user wrote or reposted (`repostAsAccount`), oldest first: the
    /// own-posts timelines (`GET /2/users/:id/tweets`, `statuses/user_timeline`).
    private(set) var ownTweetIDs: [UInt64] = []
    /// The account user's latest originals: targets for replies and retweets.
    var myRecentOriginals: [UInt64] = []
    /// Recent tweets by others: targets for replies, quotes and retweets.
    var othersRecent: [UInt64] = []
    /// Tweets that another tweet points at (never marked deleted, so references resolve).
    var referenced: Set<UInt64> = []
    var rng: SeededRandom
    /// What decorates a tweet (its media, whether a seeded post is long) and where the
    /// seeded reply chains go: a stream of its own, so adding decorations left `rng`'s
    /// sequence (and so the timelines a seed makes) as it was.
    var sideRng: SeededRandom
    /// The generator seeded reply chains' ancestors are made with (swapped in for `rng`).
    var chainRng: SeededRandom
    /// Every media item by its id, for the image host.
    private(set) var mediaByID: [UInt64: EmulatedMedia] = [:]
    private var lastMediaID: UInt64
    private(set) var lastID: UInt64
    private(set) var lastDate: Date
    /// How v2 `reposts_of_me` lists (`EmulatorConfiguration.repostsOrder`).
    var repostsOrder: EmulatorRepostsOrder = .byPostID

    init(seed: UInt64, tweetsPerFeed: Int, now: Date, extraUsers: Int = 0) {
        rng = SeededRandom(seed: seed)
        sideRng = SeededRandom(seed: seed ^ 0x6D65_6469_6120_616E)
        chainRng = SeededRandom(seed: seed ^ 0x7468_7265_6164_7321)
        lastMediaID = 1_840_000_000_000_000_000 + UInt64.random(in: 0..<1_000_000_000_000, using: &sideRng)
        lastID = 1_850_000_000_000_000_000 + UInt64.random(in: 0..<1_000_000_000_000, using: &rng)
        lastDate = Date(timeIntervalSince1970: 0)
        createUsers(extra: max(0, extraUsers))
        seedTimelines(perFeed: max(0, tweetsPerFeed), now: now)
    }

    // MARK: Users

    var account: EmulatedUser { users[Self.accountID]! }
    var otherUserIDs: ArraySlice<UInt64> { userIDs.dropFirst() }

    func user(_ id: UInt64) -> EmulatedUser? { users[id] }

    /// Gives the user a new picture at a new URL (`<n>` goes up); the old URL then
    /// answers 404, as on the real image host. Returns the new version.
    mutating func bumpImageVersion(_ id: UInt64) -> Int? {
        guard users[id] != nil else { return nil }
        users[id]!.imageVersion += 1
        return users[id]!.imageVersion
    }

    /// Gives the user a new display name (the username stays). Returns false for an
    /// unknown user.
    mutating func rename(_ id: UInt64, to name: String) -> Bool {
        guard users[id] != nil else { return false }
        users[id]!.name = name
        return true
    }

    func user(named name: String) -> EmulatedUser? {
        userIDsByName[name.lowercased()].flatMap { users[$0] }
    }

    /// The user whose display name is `displayName`, made by an earlier call, or a new
    /// followed user with that name and the username `hostile_N` (N counts these users
    /// from 1). Its bio, place and picture are generated as the seeded users' are.
    mutating func addUser(displayName: String) -> UInt64 {
        if let id = userIDsByDisplayName[displayName] { return id }
        let index = userIDs.count
        let id = Self.accountID + 98 + UInt64(index) * 7_919_000_003
        let user = EmulatedUser(
            id: id,
            username: "hostile_\(userIDsByDisplayName.count + 1)",
            name: displayName,
            description: rng.pick(TweetCorpus.bios),
            location: rng.pick(TweetCorpus.places),
            createdAt: Date(timeIntervalSince1970: 1_230_000_000 + Double(rng.next() % 350_000_000)),
            followersCount: Int(rng.next() % 20_000),
            followingCount: Int(rng.next() % 2_000),
            imageVersion: 1,
            followed: true
        )
        users[id] = user
        userIDs.append(id)
        userIDsByName[user.username.lowercased()] = id
        userIDsByDisplayName[displayName] = id
        return id
    }

    private mutating func createUsers(extra: Int) {
        var all = [(Self.accountName, Self.accountUsername)]
        all += TweetCorpus.people
        let corpus = all.count
        // Made-up accounts beyond the corpus, for many distinct authors.
        all += (0..<extra).map { ("User \($0 + 1)", "user\($0 + 1)") }
        for (index, person) in all.enumerated() {
            let id = index == 0 ? Self.accountID : Self.accountID + 98 + UInt64(index) * 7_919_000_003
            let joined = Date(timeIntervalSince1970: 1_230_000_000 + Double(rng.next() % 350_000_000))
            let user = EmulatedUser(
                id: id,
                username: person.1,
                name: person.0,
                description: index == 0 ? "Trying twfeed against the local emulator." : rng.pick(TweetCorpus.bios),
                location: rng.pick(TweetCorpus.places),
                createdAt: joined,
                followersCount: Int(rng.next() % 20_000),
                followingCount: Int(rng.next() % 2_000),
                imageVersion: 1 + Int(rng.next() % 9),
                // Two thirds of the others are followed; the rest still mention and retweet.
                followed: index == 0 || index <= (TweetCorpus.people.count * 2) / 3
                    || (index >= corpus && index % 3 != 0)
            )
            users[id] = user
            userIDs.append(id)
            userIDsByName[user.username.lowercased()] = id
        }
    }

    // MARK: Tweets

    /// The id for a tweet `gapSeconds` after the previous one: above every existing id.
    mutating func nextID(gapSeconds: Double) -> UInt64 {
        // Capped at 30 days so that ids stay far below 2^63 (v1.1 clients may read the
        // numeric `id` into an Int64) even after a long pause or an empty seed.
        let gap = UInt64(min(max(0, gapSeconds), 30 * 86_400)) * Self.idUnitsPerSecond
        lastID += gap + 1 + UInt64.random(in: 0..<(Self.idUnitsPerSecond / 2), using: &rng)
        return lastID
    }

    /// Creates and stores a tweet (ids and dates only grow). `note`: a long post's whole
    /// text (`text` is then its cut form). `decorated`: it may carry media
    /// (`decoration()`, drawn from `sideRng`).
    @discardableResult
    mutating func createTweet(
        author: UInt64,
        text: String,
        urls: [TweetURL] = [],
        at date: Date,
        replyTo: (tweet: UInt64, user: UInt64)? = nil,
        retweetOf: UInt64? = nil,
        quoting: UInt64? = nil,
        note: String? = nil,
        decorated: Bool = false
    ) -> StoredTweet {
        let id = nextID(gapSeconds: date.timeIntervalSince(lastDate))
        lastDate = max(lastDate, date)
        let resolve: (String) -> (id: UInt64, username: String)? = { [users, userIDsByName] name in
            userIDsByName[name.lowercased()].flatMap { users[$0] }.map { ($0.id, $0.username) }
        }
        let conversation = replyTo.flatMap { tweets[$0.tweet]?.conversationID } ?? replyTo?.tweet ?? id
        let shortText = StatusTextRules.truncated(text, limit: 140)
        var tweet = StoredTweet(
            id: id,
            createdAt: date,
            authorID: author,
            text: text,
            urls: urls,
            rendered: RenderedText(raw: text, urls: urls, resolveUser: resolve),
            shortened: shortText.map { RenderedText(raw: $0, urls: urls, resolveUser: resolve) },
            inReplyToTweetID: replyTo?.tweet,
            inReplyToUserID: replyTo?.user,
            retweetedID: retweetOf,
            quotedID: quoting,
            conversationID: conversation,
            source: rng.pick(TweetCorpus.sources),
            likeCount: Int(rng.next() % 40)
        )
        if let note {
            tweet.note = RenderedText(raw: note, urls: urls, resolveUser: resolve)
            tweet.noteRaw = note
        }
        if decorated { tweet.media = decoration() }
        tweets[id] = tweet
        if author == Self.accountID {
            // Its reposts are own posts too, but only its own texts can be duplicates.
            if retweetOf == nil { myTexts[Self.duplicateKey(text)] = id }
            ownTweetIDs.append(id)
        }
        for target in [replyTo?.tweet, retweetOf, quoting].compactMap({ $0 }) {
            referenced.insert(target)
        }
        if let target = retweetOf { tweets[target]?.retweetCount += 1 }
        if let target = quoting { tweets[target]?.quoteCount += 1 }
        if let target = replyTo?.tweet { tweets[target]?.replyCount += 1 }
        return tweet
    }

    /// A retweet by `author` of `original`: its own text is "RT @user: ..." cut to 140.
    @discardableResult
    mutating func createRetweet(by author: UInt64, of original: UInt64, at date: Date) -> StoredTweet? {
        guard let source = tweets[original], let originalAuthor = users[source.authorID] else { return nil }
        let full = "RT @\(originalAuthor.username): \(source.text)"
        return createTweet(
            author: author,
            text: StatusTextRules.truncated(full, limit: 140) ?? full,
            urls: source.urls,
            at: date,
            retweetOf: original
        )
    }

    mutating func append(_ id: UInt64, to feed: EmulatorFeed) {
        feeds[feed, default: []].append(id)
    }

    mutating func replaceFeed(_ feed: EmulatorFeed, with ids: [UInt64]) {
        feeds[feed] = ids
    }

    mutating func markDeleted(_ id: UInt64) { tweets[id]?.deleted = true }

    /// The post is gone for `reason` (`Emulator.deleteTweet`): timelines drop it (its slot
    /// stays, as a deleted one's), lookups and references report it, and nothing made
    /// later points at it. False for an unknown id.
    mutating func makeUnavailable(_ id: UInt64, reason: TweetUnavailability) -> Bool {
        guard tweets[id] != nil else { return false }
        tweets[id]?.deleted = true
        tweets[id]?.unavailability = reason
        othersRecent.removeAll { $0 == id }
        myRecentOriginals.removeAll { $0 == id }
        return true
    }

    // MARK: Media

    /// The media a decorated tweet gets, from `sideRng`: a tenth carry 1-4 photos (two
    /// in three with alt text), 3% a video and 2% a GIF (their stills; a third with alt
    /// text); the rest none.
    mutating func decoration() -> [EmulatedMedia] {
        let roll = Int.random(in: 0..<100, using: &sideRng)
        let kind: EmulatedMedia.Kind
        let count: Int
        switch roll {
        case 0..<10: (kind, count) = (.photo, Int.random(in: 1...4, using: &sideRng))
        case 10..<13: (kind, count) = (.video, 1)
        case 13..<15: (kind, count) = (.animatedGIF, 1)
        default: return []
        }
        return (0..<count).map { _ in makeMedia(kind) }
    }

    /// One media item with a new id, stored for the image host.
    mutating func makeMedia(_ kind: EmulatedMedia.Kind) -> EmulatedMedia {
        lastMediaID += 1 + UInt64.random(in: 0..<4_096, using: &sideRng)
        let sizes: [(Int, Int)] =
            switch kind {
            case .photo: [(1200, 800), (800, 1200), (1024, 1024), (1280, 720), (640, 480), (900, 1200)]
            case .video: [(1280, 720), (720, 1280), (640, 360)]
            case .animatedGIF: [(480, 270), (320, 320), (498, 280)]
            }
        let (width, height) = sideRng.pick(sizes)
        let described = sideRng.chance(kind == .photo ? 2.0 / 3 : 1.0 / 3)
        let media = EmulatedMedia(
            id: lastMediaID,
            kind: kind,
            width: width,
            height: height,
            altText: described ? sideRng.pick(TweetCorpus.altTexts) : nil
        )
        mediaByID[media.id] = media
        return media
    }

    /// A new media id above every other, for an uploaded photo: no draw from `sideRng`,
    /// so uploads leave the seeded decorations as they were.
    mutating func nextUploadedMediaID() -> UInt64 {
        lastMediaID += 4_097
        return lastMediaID
    }

    mutating func shiftAllDates(by seconds: TimeInterval) {
        for id in Array(tweets.keys) { tweets[id]?.createdAt.addTimeInterval(seconds) }
        lastDate.addTimeInterval(seconds)
    }

    // MARK: Posting

    static func duplicateKey(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Checks a status the way the API does, in the API's order. A text is a duplicate
    /// only while an earlier status with it is younger than `duplicateWindow` seconds
    /// (0: never), as the real check covers recent posts only. With
    /// `repliesRequireSummons`, a reply must answer a post that summons the account.
    func validatePost(
        text: String,
        replyTo: UInt64?,
        now: Date,
        duplicateWindow: Double,
        repliesRequireSummons: Bool = false,
        longPosts: Bool = false,
        hasMedia: Bool = false
    ) -> PostRejection? {
        // A post with media needs no text ("at least text or media"); no text is no duplicate.
        let empty = Self.duplicateKey(text).isEmpty
        if empty, !hasMedia { return .empty }
        if StatusTextRules.weightedLength(text) > (longPosts ? Self.longPostLimit : 280) { return .tooLong }
        if let target = replyTo, tweets[target] == nil || tweets[target]?.deleted == true {
            return .replyTargetMissing
        }
        if repliesRequireSummons, let target = replyTo, !mayReply(to: target) { return .replyNotPermitted }
        if !empty, duplicateWindow > 0, let earlier = myTexts[Self.duplicateKey(text)].flatMap({ tweets[$0] }), !earlier.deleted,
            now.timeIntervalSince(earlier.createdAt) < duplicateWindow
        {
            return .duplicate
        }
        return nil
    }

    /// How long a long post may be (weighted), for an account allowed them (X Premium).
    static let longPostLimit = 25_000

    /// Stores an accepted status as the account user's newest tweet (also in home), as
    /// the API keeps it: every URL twitter-text links (bare domains included) becomes a
    /// `t.co` link with its entity (`expanded_url`: the URL, `http://` added to a bare
    /// one), and a post over 280 (weighted) keeps its text cut to 280 scalars with "…"
    /// while the whole text is its `note_tweet` (v2; v1.1 shows only the cut text).
    /// `media`: uploaded photos it shows, which the image host serves from then on.
    mutating func post(text: String, replyTo: UInt64?, now: Date, media: [EmulatedMedia] = []) -> StoredTweet {
        let target = replyTo.flatMap { tweets[$0] }
        let (shortened, links) = shortenLinks(text)
        let long = StatusTextRules.weightedLength(text) > 280
        var tweet = createTweet(
            author: Self.accountID,
            text: long ? (StatusTextRules.truncated(shortened, limit: 280) ?? shortened) : shortened,
            urls: links,
            at: Self.wholeSeconds(max(now, lastDate)),
            replyTo: target.map { ($0.id, $0.authorID) }
        )
        if long {
            let resolve: (String) -> (id: UInt64, username: String)? = { [users, userIDsByName] name in
                userIDsByName[name.lowercased()].flatMap { users[$0] }.map { ($0.id, $0.username) }
            }
            tweet.note = RenderedText(raw: shortened, urls: links, resolveUser: resolve)
            tweet.noteRaw = shortened
            tweets[tweet.id] = tweet
        }
        if !media.isEmpty {
            tweet.media = media
            tweets[tweet.id] = tweet
            for item in media { mediaByID[item.id] = item }
        }
        // The duplicate check compares what clients send, not the shortened text.
        myTexts[Self.duplicateKey(text)] = tweet.id
        append(tweet.id, to: .home)
        if target == nil { myRecentOriginals.append(tweet.id) }
        return tweet
    }

    /// The text with each URL replaced by a new `t.co` link, left to right, and the links.
    mutating func shortenLinks(_ raw: String) -> (String, [TweetURL]) {
        let text = raw.precomposedStringWithCanonicalMapping
        var out = ""
        var rest = text[...]
        var links: [TweetURL] = []
        for url in TweetLengthCounter.urls(in: text) {
            guard let range = rest.range(of: url) else { continue }
            let code = String((0..<10).map { _ in rng.pick(TweetCorpus.linkCharacters) })
            let lower = url.lowercased()
            let expanded = lower.hasPrefix("http://") || lower.hasPrefix("https://") ? url : "http://" + url
            let link = TweetURL(url: "https://t.co/" + code, expanded: expanded, display: TweetCorpus.display(expanded))
            out += String(rest[..<range.lowerBound]) + link.url
            rest = rest[range.upperBound...]
            links.append(link)
        }
        return (links.isEmpty ? raw : out + String(rest), links)
    }

    static func wholeSeconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }
}
