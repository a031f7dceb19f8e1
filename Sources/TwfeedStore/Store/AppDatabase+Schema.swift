import GRDB
import Logging

extension AppDatabase {
    /// Every migration this build knows, in order: the whole schema in one place.
    /// Writers run the missing ones on open; readers only compare (`openReader`).
    /// An identifier, once shipped, never changes: databases record it.
    /// Frozen SQL: a shipped migration is never edited, so it repeats earlier tables on purpose (exempt from `duplicates`).
    static let migrations: [(identifier: String, sql: String)] = [
        (
            "v1: users, tweets, feeds, sync state",
            """
            CREATE TABLE user (
                id INTEGER PRIMARY KEY,
                username TEXT NOT NULL,
                name TEXT NOT NULL,
                profileImageURL TEXT,
                updatedAt DOUBLE NOT NULL
            );
            CREATE TABLE tweet (
                id INTEGER PRIMARY KEY,
                authorId INTEGER NOT NULL,
                createdAt DOUBLE NOT NULL,
                text TEXT NOT NULL,
                inReplyToId INTEGER,
                retweetOfId INTEGER,
                quotedId INTEGER,
                conversationId INTEGER,
                raw TEXT NOT NULL,
                fetchedAt DOUBLE NOT NULL
            );
            CREATE INDEX tweet_author ON tweet(authorId);
            CREATE TABLE feedMembership (
                feed TEXT NOT NULL,
                tweetId INTEGER NOT NULL REFERENCES tweet(id) ON DELETE CASCADE,
                addedAt DOUBLE NOT NULL,
                PRIMARY KEY (feed, tweetId)
            ) WITHOUT ROWID;
            CREATE TABLE syncState (
                feed TEXT PRIMARY KEY,
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
                nextPollAt DOUBLE
            );
            CREATE TABLE account (
                key TEXT PRIMARY KEY,
                value TEXT NOT NULL
            );
            """
        ),
        (
            "v2: outbox",
            """
            CREATE TABLE outbox (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                text TEXT NOT NULL,
                replyToId INTEGER,
                state TEXT NOT NULL,
                attempts INTEGER NOT NULL DEFAULT 0,
                createdAt DOUBLE NOT NULL,
                queuedAt DOUBLE NOT NULL,
                nextAttemptAt DOUBLE,
                lastAttemptAt DOUBLE,
                lastError TEXT,
                sentTweetId INTEGER,
                sentAt DOUBLE
            );
            CREATE INDEX outbox_state ON outbox(state, id);
            """
        ),
        (
            "v3: profile images",
            """
            CREATE TABLE profileImage (
                authorId INTEGER PRIMARY KEY,
                sourceURL TEXT NOT NULL,
                size TEXT NOT NULL,
                url TEXT NOT NULL,
                file TEXT,
                etag TEXT,
                lastModified TEXT,
                bytes INTEGER NOT NULL DEFAULT 0,
                fetchedAt DOUBLE,
                lastUsedAt DOUBLE NOT NULL,
                evictedAt DOUBLE,
                rejectedReason TEXT,
                rejectedPolicy TEXT,
                failures INTEGER NOT NULL DEFAULT 0,
                retryAt DOUBLE,
                lastError TEXT
            );
            CREATE INDEX profileImage_file ON profileImage(file);
            """
        ),
        ("v4: reader indexes and counts", indexesAndCounts),
        ("v5: full-text search", fullTextSearch),
        // Retention (`storage.keepDays`): the pruner walks old tweets by age, asks
        // whether a kept tweet refers to each (the partial indexes stay small: most
        // tweets refer to nothing), and deletes feed tags by tweet (v4's feedMembership_tweet).
        (
            "v6: retention",
            """
            CREATE INDEX tweet_createdAt ON tweet(createdAt);
            CREATE INDEX tweet_inReplyTo ON tweet(inReplyToId) WHERE inReplyToId IS NOT NULL;
            CREATE INDEX tweet_retweetOf ON tweet(retweetOfId) WHERE retweetOfId IS NOT NULL;
            CREATE INDEX tweet_quoted ON tweet(quotedId) WHERE quotedId IS NOT NULL;
            CREATE INDEX outbox_sentTweet ON outbox(sentTweetId) WHERE sentTweetId IS NOT NULL;
            """
        ),
        ("v7-account-scope", accountScope),
        // Exactly once without the API's duplicate check: when the earliest attempt that
        // may have gone out started (state `uncertain`, Outbox/OutboxSettler.swift).
        (
            "v8-outbox-uncertain",
            """
            ALTER TABLE outbox ADD COLUMN uncertainSince DOUBLE;
            """
        ),
        // FTS5 merges its index segments during the COMMIT of whichever write made one
        // too many: a poller's page or a prune batch then held the write lock for hundreds
        // of milliseconds. Off here; `SearchIndexMerger` merges in short paced steps.
        (
            "v9: search merges off the write path",
            """
            INSERT INTO tweetSearch (tweetSearch, rank) VALUES ('automerge', 0);
            INSERT INTO userSearch (userSearch, rank) VALUES ('automerge', 0);
            """
        ),
        ("v10: image cache counts", imageCacheCounts),
        ("v11: the ledger", ledgerSchema),
        ("v12: billing states and gaps", billingSchema),
        // Settling by the server's clock: the newest tweet id twfeed knew before the
        // earliest attempt that may have gone out. Ids are snowflakes (the server's own
        // clock), so the status, if it went out, has a larger id, whatever either clock says.
        (
            "v13: outbox id bound",
            """
            ALTER TABLE outbox ADD COLUMN newestIdBeforeAttempt INTEGER;
            """
        ),
        ("v14: media", graphSchema),
        ("v15: photos", photoSchema),
        ("v16: every post has a conversation", conversationSchema),
        ("v17: one charge per resource a day", ledgerPerResource),
        ("v18: links stored at ingest", linkSchema),
        ("v19: outbox second floor", outboxSecondFloor),
        ("v20: whom a reply answers", replySchema),
        ("v21: whom a reply answers, in the timeline view", replyView),
    ]

    /// Migrations that run Swift code after their SQL, with the logger `open` was given
    /// (indexing an existing archive takes long enough to report progress).
    static let migrationCode: [String: @Sendable (Database, Logger) throws -> Void] = [
        "v5: full-text search": indexForSearch,
        "v16: every post has a conversation": fillConversations,
    ]

    static var migrator: DatabaseMigrator { migrator(logger: Logger(label: "twfeed") { _ in SwiftLogNoOpLogHandler() }) }

    static func migrator(logger: Logger) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for migration in migrations {
            migrator.registerMigration(migration.identifier) { db in
                try db.execute(sql: migration.sql)
                try migrationCode[migration.identifier]?(db, logger)
            }
        }
        return migrator
    }
}
