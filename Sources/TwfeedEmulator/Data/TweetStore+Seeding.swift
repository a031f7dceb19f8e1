import Foundation

/// Building the network's history, and growing it later (`Emulator.addTweets`).
extension TweetStore {
    /// Plays a random but seed-determined history forward in time until every feed holds
    /// `perFeed` tweets, then keeps each feed's newest `perFeed`. The mix makes the feeds
    /// overlap as real ones do: a mention by a followed account is in home and mentions,
    /// a retweeted tweet of mine is in home and retweets.
    mutating func seedTimelines(perFeed: Int, now: Date) {
        guard perFeed > 0 else { return }
        var home: [UInt64] = []
        var mentions: [UInt64] = []
        var retweetedMine: Set<UInt64> = []
        var clock: TimeInterval = 0
        let others = Array(otherUserIDs)
        let followed = others.filter { users[$0]?.followed == true }
        let unfollowed = others.filter { users[$0]?.followed == false }
        let limit = perFeed * 40 + 1_000
        var step = 0

        // A few originals first, so early replies and retweets have targets.
        for _ in 0..<6 {
            clock += 60
            othersRecent.append(createOtherOriginal(by: rng.pick(unfollowed), at: clock))
            let mine = createMyOriginal(at: clock)
            home.append(mine)
        }

        // Home and mentions get a margin for the tweets deleted below.
        let target = perFeed + perFeed / 10 + 5
        while home.count < target || mentions.count < target || retweetedMine.count < perFeed, step < limit {
            step += 1
            clock += Double(Int.random(in: 20...600, using: &rng))
            let roll = Int.random(in: 0..<100, using: &rng)
            switch roll {
            case 0..<18:
                home.append(createMyOriginal(at: clock))
            case 18..<40:
                let id = createOtherOriginal(by: rng.pick(followed), at: clock)
                othersRecent.append(id)
                home.append(id)
            case 40..<46:
                if let retweet = createRetweet(
                    by: rng.pick(followed),
                    of: rng.pick(Array(othersRecent.suffix(30))),
                    at: Self.date(clock)
                ) {
                    home.append(retweet.id)
                }
            case 46..<58:
                // Someone retweets one of my recent tweets, preferring one nobody retweeted yet.
                let recent = Array(myRecentOriginals.suffix(25))
                let fresh = recent.filter { !retweetedMine.contains($0) }
                let target = fresh.isEmpty ? rng.pick(recent) : rng.pick(fresh)
                let retweeter = rng.pick(others)
                if let retweet = createRetweet(by: retweeter, of: target, at: Self.date(clock)) {
                    retweetedMine.insert(target)
                    if users[retweeter]?.followed == true, rng.chance(0.3) { home.append(retweet.id) }
                }
            case 58..<64:
                let target = rng.pick(Array(othersRecent.suffix(30)))
                let author = rng.pick(followed)
                // A quarter of these answer the end of a thread between accounts the user
                // does not follow: ancestors that are in no timeline (what a reader must
                // fetch by id to show the conversation).
                var parent = target
                if sideRng.chance(0.25), tweets[target]?.authorID != author, !unfollowed.isEmpty {
                    let depth = Int.random(in: 1...4, using: &sideRng)
                    parent = withChainRandom { $0.thread(below: target, replies: depth, authors: unfollowed, at: clock) }
                }
                if let id = createReply(by: author, to: parent, at: clock) { home.append(id) }
            case 64..<78:
                let (id, isFollowed) = createMention(at: clock, others: others)
                mentions.append(id)
                if isFollowed { home.append(id) }
            case 78..<84:
                let target = rng.pick(Array(othersRecent.suffix(30)))
                home.append(createQuote(by: rng.pick(followed), of: target, at: clock))
            case 84..<90:
                // My reply to someone else.
                let target = rng.pick(Array(othersRecent.suffix(30)))
                if let id = createReply(by: Self.accountID, to: target, at: clock) { home.append(id) }
            case 90..<93:
                // A reply to a tweet deleted since: v2 reports it in a partial `errors` array.
                let author = rng.pick(followed)
                let missing = 1_849_000_000_000_000_000 + UInt64.random(in: 0..<1_000_000_000, using: &rng)
                let (text, urls) = TweetCorpus.otherText(&rng)
                let tweet = createTweet(
                    author: author,
                    text: text,
                    urls: urls,
                    at: Self.date(clock),
                    replyTo: (missing, rng.pick(others))
                )
                home.append(tweet.id)
            default:
                othersRecent.append(createOtherOriginal(by: rng.pick(unfollowed), at: clock))
            }
        }

        // About 2% of others' unreferenced tweets were deleted after they reached a timeline.
        for id in Set(home.suffix(perFeed * 2) + mentions.suffix(perFeed * 2)).sorted() {
            guard let tweet = tweets[id], tweet.authorID != Self.accountID, !referenced.contains(id),
                rng.chance(0.02)
            else { continue }
            markDeleted(id)
        }
        // Each feed keeps its newest `perFeed` visible tweets (plus the deleted slots among them).
        replaceFeed(.home, with: newestVisible(home, count: perFeed))
        replaceFeed(.mentions, with: newestVisible(mentions, count: perFeed))
        replaceFeed(.retweets, with: newestVisible(retweetedMine.sorted(), count: perFeed))
        // Later replies, quotes and retweets must point at tweets that still exist.
        othersRecent.removeAll { tweets[$0]?.deleted == true }

        // Place the history so that it ends a minute before now.
        let end = (now.timeIntervalSince1970 - 60).rounded(.down)
        shiftAllDates(by: end - clock)
    }

    /// The shortest suffix of `ids` (ascending) holding `count` tweets that are not deleted.
    private func newestVisible(_ ids: [UInt64], count: Int) -> [UInt64] {
        var visible = 0
        var start = ids.count
        while start > 0, visible < count {
            start -= 1
            if tweets[ids[start]]?.deleted == false { visible += 1 }
        }
        return Array(ids[start...])
    }

    /// Seeding works on a clock counted from zero; `shiftAllDates` moves it to the present.
    static func date(_ clock: TimeInterval) -> Date { Date(timeIntervalSince1970: clock) }

    private mutating func createMyOriginal(at clock: TimeInterval) -> UInt64 {
        let (text, urls) = TweetCorpus.myText(&rng)
        let id = createTweet(author: Self.accountID, text: text, urls: urls, at: Self.date(clock)).id
        myRecentOriginals.append(id)
        return id
    }

    /// An original by another account. One in 25 is a long post (over 280: its `text`
    /// cut, the whole text as `note_tweet`), chosen from `sideRng`; it may carry media.
    mutating func createOtherOriginal(by author: UInt64, at clock: TimeInterval) -> UInt64 {
        var (text, urls) = TweetCorpus.otherText(&rng)
        if rng.chance(0.1), let someone = users[rng.pick(Array(otherUserIDs))], someone.id != author {
            text += " /cc @\(someone.username)"
        }
        if StatusTextRules.weightedLength(text) > 280 { (text, urls) = (TweetCorpus.phrases[0], []) }
        if sideRng.chance(0.04) {
            let whole = Self.longText(&sideRng)
            let cut = StatusTextRules.truncated(whole, limit: 280) ?? whole
            return createTweet(author: author, text: cut, at: Self.date(clock), note: whole, decorated: true).id
        }
        return createTweet(author: author, text: text, urls: urls, at: Self.date(clock), decorated: true).id
    }

    /// A text over 280 (weighted), without links: a phrase and three of the long tails.
    static func longText(_ random: inout SeededRandom) -> String {
        var tails = TweetCorpus.longTails
        tails.shuffle(using: &random)
        return ([random.pick(TweetCorpus.phrases)] + tails.prefix(3)).joined(separator: " ")
    }

    /// A reply by `author` to `target` ("@parent ..."); nil when `author` wrote `target`.
    /// Another account's reply may carry media.
    mutating func createReply(by author: UInt64, to target: UInt64, at clock: TimeInterval) -> UInt64? {
        guard let parent = tweets[target], let parentAuthor = users[parent.authorID], parent.authorID != author else {
            return nil
        }
        let text = "@\(parentAuthor.username) " + rng.pick(TweetCorpus.replies)
        return createTweet(
            author: author,
            text: text,
            at: Self.date(clock),
            replyTo: (parent.id, parent.authorID),
            decorated: author != Self.accountID
        ).id
    }

    mutating func createQuote(by author: UInt64, of target: UInt64, at clock: TimeInterval) -> UInt64 {
        let username = tweets[target].flatMap { users[$0.authorID] }?.username ?? "i"
        let link = TweetCorpus.statusLink(&rng, username: username, id: target)
        let text = rng.pick(TweetCorpus.replies).capitalizedFirst + " " + link.url
        return createTweet(author: author, text: text, urls: [link], at: Self.date(clock), quoting: target, decorated: true).id
    }

    /// A tweet by another account that mentions the account user: a plain mention, a
    /// reply to one of my tweets, or a quote of one. Returns whether its author is followed.
    private mutating func createMention(at clock: TimeInterval, others: [UInt64]) -> (UInt64, Bool) {
        let author = rng.pick(others)
        let isFollowed = users[author]?.followed == true
        let me = "@" + Self.accountUsername
        let body = rng.pick(TweetCorpus.mentionTexts)
        let roll = Int.random(in: 0..<10, using: &rng)
        let id: UInt64
        if roll < 4, !myRecentOriginals.isEmpty {
            let target = rng.pick(Array(myRecentOriginals.suffix(15)))
            id =
                createTweet(
                    author: author,
                    text: "\(me) \(body)",
                    at: Self.date(clock),
                    replyTo: (target, Self.accountID),
                    decorated: true
                ).id
        } else if roll < 5, let target = myRecentOriginals.last {
            let link = TweetCorpus.statusLink(&rng, username: Self.accountUsername, id: target)
            id =
                createTweet(
                    author: author,
                    text: "\(body.capitalizedFirst) \(me) \(link.url)",
                    urls: [link],
                    at: Self.date(clock),
                    quoting: target
                ).id
        } else if roll < 7 {
            id = createTweet(author: author, text: "Hey \(me), \(body)", at: Self.date(clock), decorated: true).id
        } else {
            var (text, urls) = TweetCorpus.otherText(&rng)
            text = "\(me) \(text)"
            if StatusTextRules.weightedLength(text) > 280 { (text, urls) = ("\(me) \(body)", []) }
            id = createTweet(author: author, text: text, urls: urls, at: Self.date(clock), decorated: true).id
        }
        return (id, isFollowed)
    }

    // MARK: Growing

    /// New tweets at the top of `feed`, ids above every existing one; returns the ids that
    /// joined `feed`, newest first. A new mention by a followed account also joins home,
    /// and a new retweeted tweet of mine is also in home, as in seeding.
    mutating func addTweets(to feed: EmulatorFeed, count: Int, now: Date, author chosen: UInt64? = nil) -> [UInt64] {
        var added: [UInt64] = []
        let others = Array(otherUserIDs)
        let followed = others.filter { users[$0]?.followed == true }
        for _ in 0..<max(0, count) {
            let date = Self.wholeSeconds(max(now, lastDate))
            let clock = date.timeIntervalSince1970
            switch feed {
            case .home:
                if let chosen {
                    // An original by the given author (tests that need a given author's new page).
                    let id = createOtherOriginal(by: chosen, at: clock)
                    othersRecent.append(id)
                    append(id, to: .home)
                    added.append(id)
                    continue
                }
                let author = rng.pick(followed)
                let roll = Int.random(in: 0..<10, using: &rng)
                var id: UInt64?
                if roll == 0, !othersRecent.isEmpty {
                    id = createRetweet(by: author, of: rng.pick(Array(othersRecent.suffix(20))), at: date)?.id
                } else if roll == 1, !othersRecent.isEmpty {
                    id = createReply(by: author, to: rng.pick(Array(othersRecent.suffix(20))), at: clock)
                } else if roll == 2, !othersRecent.isEmpty {
                    id = createQuote(by: author, of: rng.pick(Array(othersRecent.suffix(20))), at: clock)
                }
                let newID = id ?? createOtherOriginal(by: author, at: clock)
                if id == nil { othersRecent.append(newID) }
                append(newID, to: .home)
                added.append(newID)
            case .mentions:
                let (id, isFollowed) = createMention(at: clock, others: others)
                append(id, to: .mentions)
                if isFollowed { append(id, to: .home) }
                added.append(id)
            case .retweets:
                let mine = createMyOriginal(at: clock)
                append(mine, to: .home)
                createRetweet(by: rng.pick(others), of: mine, at: date)
                append(mine, to: .retweets)
                added.append(mine)
            }
        }
        return added.reversed()
    }
}

extension String {
    /// The text with its first letter in upper case ("thanks!" → "Thanks!").
    var capitalizedFirst: String {
        guard let first else { return self }
        return first.uppercased() + dropFirst()
    }
}
