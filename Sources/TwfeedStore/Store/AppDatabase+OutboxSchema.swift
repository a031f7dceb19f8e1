extension AppDatabase {
    /// v19, the outbox's second floor (photos, threads, a time to send, deletions):
    /// - `outbox` gains its kind (a post or a deletion and the post it deletes), its time
    ///   to send, and its place in a thread (the first part's id, its part, how many).
    /// - `outboxPhoto` holds each queued photo's bytes, copied in with the text in one
    ///   transaction, and the steps of its sending (its media id and when that expires,
    ///   when its alt text was set), each committed before the next starts. The bytes are
    ///   dropped once the post went out; the row stays for `outbox` to show.
    ///   A rowid table, not WITHOUT ROWID: its rows hold up to 5 MB.
    /// - `tweet.deletedAt`: the account deleted it through twfeed; the row stays, shown gone.
    /// Frozen SQL: a shipped migration is never edited.
    static let outboxSecondFloor = """
        ALTER TABLE outbox ADD COLUMN kind TEXT NOT NULL DEFAULT 'post';
        ALTER TABLE outbox ADD COLUMN targetTweetId INTEGER;
        ALTER TABLE outbox ADD COLUMN notBefore DOUBLE;
        ALTER TABLE outbox ADD COLUMN threadId INTEGER;
        ALTER TABLE outbox ADD COLUMN threadPart INTEGER;
        ALTER TABLE outbox ADD COLUMN threadParts INTEGER;
        CREATE INDEX outbox_thread ON outbox(threadId, threadPart) WHERE threadId IS NOT NULL;
        CREATE INDEX outbox_notBefore ON outbox(notBefore) WHERE state = 'pending' AND notBefore IS NOT NULL;
        CREATE TABLE outboxPhoto (
            outboxId INTEGER NOT NULL REFERENCES outbox(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            fileName TEXT NOT NULL,
            type TEXT NOT NULL,
            byteCount INTEGER NOT NULL,
            bytes BLOB,
            alt TEXT,
            mediaId TEXT,
            mediaExpiresAt DOUBLE,
            altSetAt DOUBLE,
            PRIMARY KEY (outboxId, position)
        );
        ALTER TABLE tweet ADD COLUMN deletedAt DOUBLE;
        """
}
