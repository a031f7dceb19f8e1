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
}
