import Foundation

/// Tweets whose text (and author's display name) a test chooses: markup, entities,
/// anything a reader must show as text (`Emulator.addTweet(to:text:authorName:)`).
extension TweetStore {
    /// Adds one tweet with exactly `text` at the top of `feed` and returns its id.
    ///
    /// - home: an original by `authorName`'s user (see `addUser(displayName:)`), or by
    ///   a followed user.
    /// - mentions: by `authorName`'s user (followed, so it is in home too), or by any
    ///   other user (in home too when followed). The text is kept as given, even
    ///   without an `@` of the account.
    /// - retweets: one of the account's own tweets, which another user retweets; it is
    ///   in home too. `authorName` does not apply (the author is the account).
    ///
    /// The text is stored raw and sent as every tweet is: HTML-escaped (`&amp;`, `&lt;`,
    /// `&gt;`) in v2 `text` and v1.1 `full_text`/`text`, cut to 140 in v1.1's
    /// non-extended `text`. A text over 280 (weighted) makes a long post: `text` cut to
    /// 280 with "…", the whole text as v2 `note_tweet`.
    mutating func addTweet(to feed: EmulatorFeed, text given: String, authorName: String?, now: Date) -> UInt64 {
        let (text, note) = Self.givenText(given)
        let date = Self.wholeSeconds(max(now, lastDate))
        let others = Array(otherUserIDs)
        let named = feed == .retweets ? nil : authorName.map { addUser(displayName: $0) }
        switch feed {
        case .home:
            let author = named ?? rng.pick(others.filter { users[$0]?.followed == true })
            let id = createTweet(author: author, text: text, at: date, note: note).id
            othersRecent.append(id)
            append(id, to: .home)
            return id
        case .mentions:
            let author = named ?? rng.pick(others)
            let id = createTweet(author: author, text: text, at: date, note: note).id
            append(id, to: .mentions)
            if users[author]?.followed == true { append(id, to: .home) }
            return id
        case .retweets:
            let mine = createTweet(author: Self.accountID, text: text, at: date, note: note).id
            myRecentOriginals.append(mine)
            append(mine, to: .home)
            createRetweet(by: rng.pick(others), of: mine, at: date)
            append(mine, to: .retweets)
            return mine
        }
    }

    /// A text as stored: cut to 280 with "…" when longer (weighted), the whole as the note.
    static func givenText(_ given: String) -> (text: String, note: String?) {
        guard StatusTextRules.weightedLength(given) > 280 else { return (given, nil) }
        return (StatusTextRules.truncated(given, limit: 280) ?? given, given)
    }

    /// A post with exactly `text`, in no timeline, by `authorName`'s user (see
    /// `addUser(displayName:)`) or else by an account the user does not follow; and at the
    /// top of home a followed account's quote of it (a generated text with a link to it)
    /// or repost of it ("RT @user: ..."). Returns the quote or repost and the post.
    mutating func addReferencedTweet(
        text given: String,
        authorName: String?,
        via kind: EmulatedReferenceKind,
        now: Date
    ) -> (id: UInt64, original: UInt64) {
        let (text, note) = Self.givenText(given)
        let date = Self.wholeSeconds(max(now, lastDate))
        let others = Array(otherUserIDs)
        let strangers = others.filter { users[$0]?.followed == false }
        let author = authorName.map { addUser(displayName: $0) } ?? rng.pick(strangers.isEmpty ? others : strangers)
        let original = createTweet(author: author, text: text, at: date, note: note).id
        let followed = others.filter { users[$0]?.followed == true && $0 != author }
        let carrier = rng.pick(followed.isEmpty ? [Self.accountID] : followed)
        let id: UInt64
        switch kind {
        case .quote: id = createQuote(by: carrier, of: original, at: date.timeIntervalSince1970)
        case .repost: id = createRetweet(by: carrier, of: original, at: date)?.id ?? original
        }
        append(id, to: .home)
        return (id, original)
    }
}
