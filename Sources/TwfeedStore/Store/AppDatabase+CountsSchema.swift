extension AppDatabase {
    /// Migration "v4: reader indexes and counts": what makes every read cost O(limit) or
    /// O(log n) at a million tweets (docs/SCHEMA.md explains each piece). Its identifier
    /// is shipped and stays; "reader" there means the store's reads, not the web reader.
    ///
    /// - `feedMembership_tweet`: the feeds of one tweet (the per-row list in `feed`), and
    ///   the cascade when a tweet is deleted, without scanning the whole table.
    /// - `feedCount`/`outboxCount`: the counts `status` shows, kept by triggers in the
    ///   same transaction as the change, whoever writes (the syncer, retention's deletes,
    ///   the outbox), and filled here for an existing database. The triggers upsert, so a
    ///   feed or a state nobody counted before gets its row.
    /// - Two partial indexes give the image fetcher its next due time by min() on an index.
    /// - Views for people who query by hand, with ISO 8601 times and ids as text.
    /// Frozen SQL: a shipped migration is never edited, so it repeats earlier tables on purpose (exempt from `duplicates`).
    static let indexesAndCounts = """
        CREATE INDEX feedMembership_tweet ON feedMembership(tweetId, feed);

        \(counter("feedCount", counting: "tweets", of: "feedMembership", per: "feed"))
        \(counter("outboxCount", counting: "statuses", of: "outbox", per: "state"))
        CREATE INDEX profileImage_fetched ON profileImage(fetchedAt) WHERE file IS NOT NULL AND rejectedReason IS NULL;
        CREATE INDEX profileImage_retry ON profileImage(retryAt) WHERE retryAt IS NOT NULL AND rejectedReason IS NULL;

        CREATE VIEW timeline AS
        SELECT m.feed AS feed, CAST(t.id AS TEXT) AS id, m.tweetId AS tweet_id,
            strftime('%Y-%m-%dT%H:%M:%SZ', t.createdAt, 'unixepoch') AS created_at,
            u.username AS username, u.name AS name, t.text AS text,
            CAST(t.inReplyToId AS TEXT) AS in_reply_to_id, CAST(t.retweetOfId AS TEXT) AS retweet_of_id,
            CAST(t.quotedId AS TEXT) AS quoted_id,
            'https://x.com/' || coalesce(u.username, 'i/web') || '/status/' || t.id AS url
        FROM feedMembership m
        JOIN tweet t ON t.id = m.tweetId
        LEFT JOIN user u ON u.id = t.authorId;

        CREATE VIEW feed_counts AS
        SELECT feedCount.feed AS feed, feedCount.tweets AS tweets,
            CAST((SELECT max(m.tweetId) FROM feedMembership m WHERE m.feed = feedCount.feed) AS TEXT) AS newest_id,
            strftime('%Y-%m-%dT%H:%M:%SZ', (SELECT t.createdAt FROM tweet t
                WHERE t.id = (SELECT max(m.tweetId) FROM feedMembership m WHERE m.feed = feedCount.feed)), 'unixepoch') AS newest_at
        FROM feedCount;

        CREATE VIEW posts AS
        SELECT o.id AS id, o.state AS state, o.text AS text, CAST(o.replyToId AS TEXT) AS reply_to_id,
            o.attempts AS attempts,
            strftime('%Y-%m-%dT%H:%M:%SZ', o.createdAt, 'unixepoch') AS created_at,
            strftime('%Y-%m-%dT%H:%M:%SZ', o.queuedAt, 'unixepoch') AS queued_at,
            strftime('%Y-%m-%dT%H:%M:%SZ', o.nextAttemptAt, 'unixepoch') AS next_attempt_at,
            o.lastError AS last_error, CAST(o.sentTweetId AS TEXT) AS sent_tweet_id,
            strftime('%Y-%m-%dT%H:%M:%SZ', o.sentAt, 'unixepoch') AS sent_at
        FROM outbox o;
        """

    /// A table counting `table`'s rows per `key`, filled from the rows there now and kept
    /// by triggers on insert, delete and a change of `key`. Part of a shipped migration:
    /// never change what it produces.
    private static func counter(_ name: String, counting column: String, of table: String, per key: String) -> String {
        let plusOne = """
            INSERT INTO \(name) (\(key), \(column)) VALUES (NEW.\(key), 1)
                ON CONFLICT(\(key)) DO UPDATE SET \(column) = \(column) + 1;
            """
        let minusOne = "UPDATE \(name) SET \(column) = \(column) - 1 WHERE \(key) = OLD.\(key);"
        return """
            CREATE TABLE \(name) (\(key) TEXT PRIMARY KEY, \(column) INTEGER NOT NULL) WITHOUT ROWID;
            INSERT INTO \(name) (\(key), \(column)) SELECT \(key), count(*) FROM \(table) GROUP BY \(key);
            CREATE TRIGGER \(name)_insert AFTER INSERT ON \(table) BEGIN \(plusOne) END;
            CREATE TRIGGER \(name)_delete AFTER DELETE ON \(table) BEGIN \(minusOne) END;
            CREATE TRIGGER \(name)_update AFTER UPDATE OF \(key) ON \(table) WHEN NEW.\(key) IS NOT OLD.\(key) BEGIN
                \(minusOne) \(plusOne)
            END;
            """
    }
}
