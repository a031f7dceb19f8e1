extension AppDatabase {
    /// v20: whom a reply answers, as its own answer named them (`tweet.inReplyToUsername`),
    /// so a reply whose parent is not stored (deleted, protected, not fetched yet) still
    /// says "replying to @x". Readers prefer the stored parent's author (a rename is then
    /// current) and fall back on this column; the store writes it for every reply from now on.
    ///
    /// The replies stored before it whose readers would name nobody (the parent, or its
    /// author, not stored) get theirs here, from their stored answer: v1.1's and the
    /// archive's `in_reply_to_screen_name`; else, for v2, the stored user of
    /// `in_reply_to_user_id`, then the post's mention of that id (`entities.mentions`),
    /// the order the store follows at ingest (`repliedUsername`; a page's `includes.users`
    /// are stored users by then). An answer that is not valid JSON, or says none of these,
    /// leaves NULL, as does every reply whose parent and its author are stored. One UPDATE
    /// along the replies' partial index (`tweet_inReplyTo`): two primary-key probes per
    /// reply, and the JSON read only for those it fills, so a million posts whose parents
    /// are stored cost about a second, and the cost grows with the replies it fills
    /// (docs/SCHEMA.md). Frozen SQL: a shipped migration is never edited.
    static let replySchema = """
        ALTER TABLE tweet ADD COLUMN inReplyToUsername TEXT;
        UPDATE tweet SET inReplyToUsername = coalesce(
                nullif(json_extract(raw, '$.in_reply_to_screen_name'), ''),
                (SELECT u.username FROM user u WHERE u.id = CAST(json_extract(tweet.raw, '$.in_reply_to_user_id') AS INTEGER)),
                (SELECT json_extract(m.value, '$.username') FROM json_each(tweet.raw, '$.entities.mentions') m
                    WHERE json_extract(m.value, '$.id') = json_extract(tweet.raw, '$.in_reply_to_user_id')
                        AND json_extract(m.value, '$.username') <> ''))
            WHERE inReplyToId IS NOT NULL
                AND NOT EXISTS (SELECT 1 FROM tweet p JOIN user a ON a.id = p.authorId WHERE p.id = tweet.inReplyToId)
                AND json_valid(raw);
        """

    /// v21: the `timeline` view says whom a reply answers (`in_reply_to_username`, after
    /// the columns it had, so that a query naming columns by position still reads them),
    /// as the readers do: the stored parent's author, else the reply's own
    /// `inReplyToUsername` (v20); NULL for a post that answers nobody. Two primary-key
    /// probes per reply row. Frozen SQL: a shipped migration is never edited.
    static let replyView = """
        DROP VIEW timeline;
        CREATE VIEW timeline AS
        SELECT m.feed AS feed, CAST(t.id AS TEXT) AS id, m.tweetId AS tweet_id,
            strftime('%Y-%m-%dT%H:%M:%SZ', t.createdAt, 'unixepoch') AS created_at,
            u.username AS username, u.name AS name, t.text AS text,
            CAST(t.inReplyToId AS TEXT) AS in_reply_to_id, CAST(t.retweetOfId AS TEXT) AS retweet_of_id,
            CAST(t.quotedId AS TEXT) AS quoted_id,
            'https://x.com/' || coalesce(u.username, 'i/web') || '/status/' || t.id AS url,
            CASE WHEN t.inReplyToId IS NOT NULL THEN coalesce(
                (SELECT a.username FROM tweet p JOIN user a ON a.id = p.authorId WHERE p.id = t.inReplyToId),
                t.inReplyToUsername) END AS in_reply_to_username
        FROM feedMembership m
        JOIN tweet t ON t.id = m.tweetId
        LEFT JOIN user u ON u.id = t.authorId
        WHERE m.account = \(currentAccountSQL);
        """
}
