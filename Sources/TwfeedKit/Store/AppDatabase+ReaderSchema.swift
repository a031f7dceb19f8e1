extension AppDatabase {
    /// Migration "v4: reader indexes and counts": what makes every read cost O(limit) or
    /// O(log n) at a million tweets (docs/SCHEMA.md explains each piece).
    ///
    /// - `feedMembership_tweet`: the feeds of one tweet (the per-row list in `feed`), and
    ///   the cascade when a tweet is deleted, without scanning the whole table.
    /// - `feedCount`/`outboxCount`: the counts `status` shows, kept by triggers in the
    ///   same transaction as the change, whoever writes (the syncer, retention's deletes,
    ///   the outbox), and filled here for an existing database. The triggers upsert, so a
    ///   feed or a state nobody counted before gets its row.
    /// - Two partial indexes give the image fetcher its next due time by min() on an index.
    /// - Views for people who query by hand, with ISO 8601 times and ids as text.
    static let readerIndexesAndCounts = """
        CREATE INDEX feedMembership_tweet ON feedMembership(tweetId, feed);

        CREATE TABLE feedCount (feed TEXT PRIMARY KEY, tweets INTEGER NOT NULL) WITHOUT ROWID;
        INSERT INTO feedCount (feed, tweets) SELECT feed, count(*) FROM feedMembership GROUP BY feed;
        CREATE TRIGGER feedCount_insert AFTER INSERT ON feedMembership BEGIN
            INSERT INTO feedCount (feed, tweets) VALUES (NEW.feed, 1) ON CONFLICT(feed) DO UPDATE SET tweets = tweets + 1;
        END;
        CREATE TRIGGER feedCount_delete AFTER DELETE ON feedMembership BEGIN
            UPDATE feedCount SET tweets = tweets - 1 WHERE feed = OLD.feed;
        END;
        CREATE TRIGGER feedCount_update AFTER UPDATE OF feed ON feedMembership WHEN NEW.feed IS NOT OLD.feed BEGIN
            UPDATE feedCount SET tweets = tweets - 1 WHERE feed = OLD.feed;
            INSERT INTO feedCount (feed, tweets) VALUES (NEW.feed, 1) ON CONFLICT(feed) DO UPDATE SET tweets = tweets + 1;
        END;

        CREATE TABLE outboxCount (state TEXT PRIMARY KEY, statuses INTEGER NOT NULL) WITHOUT ROWID;
        INSERT INTO outboxCount (state, statuses) SELECT state, count(*) FROM outbox GROUP BY state;
        CREATE TRIGGER outboxCount_insert AFTER INSERT ON outbox BEGIN
            INSERT INTO outboxCount (state, statuses) VALUES (NEW.state, 1) ON CONFLICT(state) DO UPDATE SET statuses = statuses + 1;
        END;
        CREATE TRIGGER outboxCount_delete AFTER DELETE ON outbox BEGIN
            UPDATE outboxCount SET statuses = statuses - 1 WHERE state = OLD.state;
        END;
        CREATE TRIGGER outboxCount_update AFTER UPDATE OF state ON outbox WHEN NEW.state IS NOT OLD.state BEGIN
            UPDATE outboxCount SET statuses = statuses - 1 WHERE state = OLD.state;
            INSERT INTO outboxCount (state, statuses) VALUES (NEW.state, 1) ON CONFLICT(state) DO UPDATE SET statuses = statuses + 1;
        END;

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
}
