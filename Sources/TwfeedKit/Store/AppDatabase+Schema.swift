import GRDB

extension AppDatabase {
    /// Every migration this build knows, in order. Writers run the missing ones on open;
    /// readers only compare (`openReader`).
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: users, tweets, feeds, sync state") { db in
            try db.execute(sql: """
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
                """)
        }
        registerOutboxMigration(&migrator)
        registerImageMigration(&migrator)
        return migrator
    }
}
