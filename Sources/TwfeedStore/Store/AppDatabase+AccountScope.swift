import GRDB
import TwfeedCore

extension AppDatabase {
    /// The signed-in account's user id as SQL: the `account` table's `userId`, or 0
    /// when no account is known yet (a database that has never signed in keeps working,
    /// its rows under 0 until the first account adopts them). A constant subquery by
    /// the table's primary key, so an index can take it as an equality.
    static let currentAccountSQL = "coalesce((SELECT CAST(value AS INTEGER) FROM account WHERE key = 'userId'), 0)"

    /// The signed-in account's user id (0 before any), which scopes feed tags, counts
    /// and sync positions.
    static func currentAccount(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: StoreQueries.currentAccount.sql) ?? 0
    }

    /// The `account` column's value for a scope: rows stored before any account was
    /// known have 0 there (the column is part of primary keys, so it cannot be NULL).
    static func owner(_ scope: AccountScope, _ db: Database) throws -> Int64 {
        switch scope {
        case .signedIn: try currentAccount(db)
        case .account(let user): user?.rawValue ?? 0
        }
    }

    /// The scope an `account` column's value names (0: before any account).
    static func scope(_ owner: Int64) -> AccountScope {
        .account(owner == 0 ? nil : UserID(owner))
    }

    /// Migration "v7-account-scope": feed positions and feed tags belong to an account.
    ///
    /// `feedMembership` and `syncState` gain `account` (the user id) at the head of their
    /// primary keys, so a different sign-in starts its own positions and sees none of
    /// the other account's tags, and signing back in finds them again (nothing is
    /// deleted). The counts `status` shows are kept per (account, feed) by triggers, as
    /// v4's were per feed. Existing rows belong to the account stored now (0 if none).
    /// The views read the signed-in account's rows. `lastFullWalkAt` is the retweets
    /// feed's slow full walk (`feeds.retweets.fullWalkHours`). The views are dropped
    /// first: renaming a table under a view that names a missing one fails.
    /// Frozen SQL: a shipped migration is never edited, so it repeats earlier tables on purpose (exempt from `duplicates`).
    static let accountScope = """
        DROP VIEW timeline;
        DROP VIEW feed_counts;
        DROP TRIGGER feedCount_insert;
        DROP TRIGGER feedCount_delete;
        DROP TRIGGER feedCount_update;
        DROP TABLE feedCount;

        CREATE TABLE feedMembership_v7 (
            account INTEGER NOT NULL,
            feed TEXT NOT NULL,
            tweetId INTEGER NOT NULL REFERENCES tweet(id) ON DELETE CASCADE,
            addedAt DOUBLE NOT NULL,
            PRIMARY KEY (account, feed, tweetId)
        ) WITHOUT ROWID;
        INSERT INTO feedMembership_v7 (account, feed, tweetId, addedAt)
            SELECT \(currentAccountSQL), feed, tweetId, addedAt FROM feedMembership;
        DROP TABLE feedMembership;
        ALTER TABLE feedMembership_v7 RENAME TO feedMembership;
        CREATE INDEX feedMembership_tweet ON feedMembership(tweetId, account, feed);

        CREATE TABLE syncState_v7 (
            account INTEGER NOT NULL,
            feed TEXT NOT NULL,
            newestId INTEGER,
            pendingTopId INTEGER,
            pendingBottomId INTEGER,
            lastPollAt DOUBLE,
            lastSuccessAt DOUBLE,
            lastError TEXT,
            failures INTEGER NOT NULL DEFAULT 0,
            rateLimitLimit INTEGER,
            rateLimitRemaining INTEGER,
            rateLimitResetAt DOUBLE,
            nextPollAt DOUBLE,
            lastFullWalkAt DOUBLE,
            PRIMARY KEY (account, feed)
        );
        INSERT INTO syncState_v7 (account, feed, newestId, pendingTopId, pendingBottomId, lastPollAt, lastSuccessAt,
                lastError, failures, rateLimitLimit, rateLimitRemaining, rateLimitResetAt, nextPollAt)
            SELECT \(currentAccountSQL), feed, newestId, pendingTopId, pendingBottomId, lastPollAt, lastSuccessAt,
                lastError, failures, rateLimitLimit, rateLimitRemaining, rateLimitResetAt, nextPollAt FROM syncState;
        DROP TABLE syncState;
        ALTER TABLE syncState_v7 RENAME TO syncState;

        CREATE TABLE feedCount (
            account INTEGER NOT NULL,
            feed TEXT NOT NULL,
            tweets INTEGER NOT NULL,
            PRIMARY KEY (account, feed)
        ) WITHOUT ROWID;
        INSERT INTO feedCount (account, feed, tweets) SELECT account, feed, count(*) FROM feedMembership GROUP BY account, feed;
        CREATE TRIGGER feedCount_insert AFTER INSERT ON feedMembership BEGIN
            INSERT INTO feedCount (account, feed, tweets) VALUES (NEW.account, NEW.feed, 1)
                ON CONFLICT(account, feed) DO UPDATE SET tweets = tweets + 1;
        END;
        CREATE TRIGGER feedCount_delete AFTER DELETE ON feedMembership BEGIN
            UPDATE feedCount SET tweets = tweets - 1 WHERE account = OLD.account AND feed = OLD.feed;
        END;
        CREATE TRIGGER feedCount_update AFTER UPDATE OF account, feed ON feedMembership
        WHEN NEW.account IS NOT OLD.account OR NEW.feed IS NOT OLD.feed BEGIN
            UPDATE feedCount SET tweets = tweets - 1 WHERE account = OLD.account AND feed = OLD.feed;
            INSERT INTO feedCount (account, feed, tweets) VALUES (NEW.account, NEW.feed, 1)
                ON CONFLICT(account, feed) DO UPDATE SET tweets = tweets + 1;
        END;

        CREATE VIEW timeline AS
        SELECT m.feed AS feed, CAST(t.id AS TEXT) AS id, m.tweetId AS tweet_id,
            strftime('%Y-%m-%dT%H:%M:%SZ', t.createdAt, 'unixepoch') AS created_at,
            u.username AS username, u.name AS name, t.text AS text,
            CAST(t.inReplyToId AS TEXT) AS in_reply_to_id, CAST(t.retweetOfId AS TEXT) AS retweet_of_id,
            CAST(t.quotedId AS TEXT) AS quoted_id,
            'https://x.com/' || coalesce(u.username, 'i/web') || '/status/' || t.id AS url
        FROM feedMembership m
        JOIN tweet t ON t.id = m.tweetId
        LEFT JOIN user u ON u.id = t.authorId
        WHERE m.account = \(currentAccountSQL);

        CREATE VIEW feed_counts AS
        SELECT c.feed AS feed, c.tweets AS tweets,
            CAST((SELECT max(m.tweetId) FROM feedMembership m WHERE m.account = c.account AND m.feed = c.feed) AS TEXT) AS newest_id,
            strftime('%Y-%m-%dT%H:%M:%SZ', (SELECT t.createdAt FROM tweet t
                WHERE t.id = (SELECT max(m.tweetId) FROM feedMembership m WHERE m.account = c.account AND m.feed = c.feed)),
                'unixepoch') AS newest_at
        FROM feedCount c
        WHERE c.account = \(currentAccountSQL);
        """

    /// The first account a database learns adopts what was stored before any account
    /// was known (rows under 0), so a database that synced without one loses nothing.
    static func adoptUnownedRows(by account: Int64, _ db: Database) throws {
        guard account != 0 else { return }
        try db.execute(sql: "UPDATE OR IGNORE feedMembership SET account = ? WHERE account = 0", arguments: [account])
        try db.execute(sql: "UPDATE OR IGNORE syncState SET account = ? WHERE account = 0", arguments: [account])
    }
}
